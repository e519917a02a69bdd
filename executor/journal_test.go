package executor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func testPlan(forks int) *plan.Plan {
	s := spec.DefaultSettings()
	s.Forks = forks
	return &plan.Plan{
		Suite: "t",
		Specs: []plan.SpecRef{{Path: "a.yaml", SHA256: "aa"}},
		Runs: []plan.Run{
			{Index: 0, Key: "x:avgt", Benchmark: "x", Mode: "avgt", Settings: s},
			{Index: 1, Key: "y:thrpt", Benchmark: "y", Mode: "thrpt", Settings: s},
		},
	}
}

func testHeader(t *testing.T, p *plan.Plan) JournalHeader {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "suite")
	if err := os.WriteFile(exe, []byte("a suite binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := NewJournalHeader(p, exe)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A fork as the journal must keep it, with every field set.
func fullFork() protocol.ForkResult {
	return protocol.ForkResult{
		Run: 1, Fork: 2, Warmup: true, PID: 4242, ExitStatus: 0, Wall: 1500 * time.Millisecond,
		Timer: protocol.TimerCalibration{ResolutionNs: 20, OverheadNs: 21.5},
		Iterations: []protocol.Iteration{{
			Phase: protocol.PhaseMeasurement, Index: 1, Ops: 1e6, TimeNs: 1e9, Invocations: 1000000,
			Histogram: &hist.Snapshot{Count: 2, Sum: 3, Min: 1, Max: 2, Bins: []hist.Bin{}},
			Metrics:   map[string]float64{"allocs/op": 1},
			Windows:   [][2]int64{{1, 2}},
		}},
		Metrics:    map[string]float64{"B/op": 64},
		Profiles:   map[string]string{"cpu": "/tmp/cpu.pprof"},
		Err:        "",
		StderrTail: "",
	}
}

func TestJournalRoundTrip(t *testing.T) {
	p := testPlan(2)
	h := testHeader(t, p)
	path := filepath.Join(t.TempDir(), "j")
	j, err := CreateJournal(path, h)
	if err != nil {
		t.Fatal(err)
	}
	full := fullFork()
	failed := protocol.ForkResult{Run: 0, Fork: 1, PID: 7, ExitStatus: 3, Err: "fork exited with status 3", StderrTail: "bye\n"}
	for _, f := range []protocol.ForkResult{failed, full} {
		if err := j.Append(p.Runs[f.Run].Key, &f); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	st, err := LoadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &JournalState{Header: h, Forks: []protocol.ForkResult{failed, full}}
	if diff := cmp.Diff(want, st, cmpopts.IgnoreUnexported(JournalState{}), cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("journal round trip (-want +got):\n%s", diff)
	}
	if h.Forks != 4 || h.Runs != 2 || len(h.Build) != 64 || len(h.Plan) != 64 {
		t.Errorf("header %+v: want 2 runs of 2 forks and sha256 identities", h)
	}

	// Resume, end, and load again: ended and complete.
	j, err = OpenJournal(path, st)
	if err != nil {
		t.Fatal(err)
	}
	extra := protocol.ForkResult{Run: 0, Fork: 2, PID: 9}
	if err := j.Append("x:avgt", &extra); err != nil {
		t.Fatal(err)
	}
	if err := j.End(true); err != nil {
		t.Fatal(err)
	}
	j.Close()
	st, err = LoadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Forks) != 3 || !st.Ended || !st.Complete {
		t.Errorf("after resume: %d forks, ended %v complete %v; want 3, true, true", len(st.Forks), st.Ended, st.Complete)
	}
}

// A crash in the middle of a write leaves a line without its newline: it
// is dropped, and overwritten by the next append.
func TestJournalTornLine(t *testing.T) {
	p := testPlan(2)
	path := filepath.Join(t.TempDir(), "j")
	j, err := CreateJournal(path, testHeader(t, p))
	if err != nil {
		t.Fatal(err)
	}
	j.Append("x:avgt", &protocol.ForkResult{Run: 0, Fork: 1, PID: 1})
	j.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"key":"x:avgt","fork":{"run":0,"fork":2,"pi`)
	f.Close()
	st, err := LoadJournal(path)
	if err != nil || len(st.Forks) != 1 || st.Ended {
		t.Fatalf("LoadJournal: %v, %+v; want the one whole fork", err, st)
	}
	j, err = OpenJournal(path, st)
	if err != nil {
		t.Fatal(err)
	}
	j.Append("x:avgt", &protocol.ForkResult{Run: 0, Fork: 2, PID: 2})
	j.Close()
	st, err = LoadJournal(path)
	if err != nil || len(st.Forks) != 2 || st.Forks[1].PID != 2 {
		t.Fatalf("after the append over the torn line: %v, %+v", err, st)
	}
}

func TestJournalErrors(t *testing.T) {
	p := testPlan(1)
	h := testHeader(t, p)
	dir := t.TempDir()
	good, _ := os.ReadFile(func() string {
		path := filepath.Join(dir, "good")
		j, err := CreateJournal(path, h)
		if err != nil {
			t.Fatal(err)
		}
		j.Close()
		return path
	}())
	fork := `{"key":"x:avgt","fork":{"run":0,"fork":1}}` + "\n"
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "empty journal"},
		{"no header", fork, ":1: not a benchspec journal (no header)"},
		{"not JSON", string(good) + "hello\n", ":2: not a journal line"},
		{"twice", string(good) + fork + fork, ":3: fork 1 of run 0 recorded twice (first on line 2)"},
		{"outside the plan", string(good) + `{"fork":{"run":5,"fork":1}}` + "\n", ":2: fork 1 of run 5 is not in the journal's plan"},
		{"second header", string(good) + string(good), ":2: a second header"},
		{"empty line", string(good) + "{}\n", ":2: empty journal line"},
		{"version", strings.Replace(string(good), `"journal_version":1`, `"journal_version":9`, 1), "journal version 9; this build reads version 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "j")
			os.WriteFile(path, []byte(tt.data), 0o644)
			_, err := LoadJournal(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadJournal = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestJournalHeaderCheck(t *testing.T) {
	p := testPlan(2)
	h := testHeader(t, p)
	tests := []struct {
		name   string
		change func(*JournalHeader)
		want   string
	}{
		{"same", func(*JournalHeader) {}, ""},
		{"spec", func(n *JournalHeader) { n.Specs[0].SHA256 = "bb" }, "spec a.yaml changed since the journal was written"},
		{"specs", func(n *JournalHeader) { n.Specs = append(n.Specs, n.Specs[0]) }, "the journal's batch ran 1 spec file(s), this one 2"},
		{"plan", func(n *JournalHeader) { n.Plan = "p" }, "the plan changed since the journal was written"},
		{"build", func(n *JournalHeader) { n.Build = "b" }, "the suite binary changed since the journal was written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := h
			now.Specs = append([]plan.SpecRef{}, h.Specs...)
			tt.change(&now)
			err := h.Check(&now)
			if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check = %v, want %q", err, tt.want)
			}
		})
	}
}

// A journal records the binaries of a spec's builds and of package
// benchmarks, each rebuilt on resume: one rebuilt from other code or
// with another PGO profile refuses the resume, naming it.
func TestJournalHeaderBinaries(t *testing.T) {
	dir := t.TempDir()
	bin := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p := testPlan(2)
	p.Runs[0].Build, p.Runs[0].Executable = "pgo", bin("pgo", "built with profile 1")
	p.Runs[1].GoTest = &protocol.GoTest{ImportPath: "example.com/m/x", Binary: bin("x.test", "a test binary")}
	h := testHeader(t, p)
	if len(h.Binaries) != 2 || h.Binaries["build pgo"] == "" || h.Binaries["package example.com/m/x"] == "" {
		t.Fatalf("binaries %v, want the build pgo's and the package's", h.Binaries)
	}
	same := testHeader(t, p)
	if err := h.Check(&same); err != nil {
		t.Errorf("the same binaries: %v", err)
	}
	bin("pgo", "built with profile 2")
	changed := testHeader(t, p)
	if err := h.Check(&changed); err == nil || !strings.Contains(err.Error(), "the binary of build pgo changed since the journal was written") {
		t.Errorf("a rebuilt build: %v, want the build named", err)
	}
	p.Runs[1].GoTest = nil
	gone := testHeader(t, p)
	gone.Binaries["build pgo"] = h.Binaries["build pgo"]
	if err := h.Check(&gone); err == nil || !strings.Contains(err.Error(), "the binary of package example.com/m/x changed") || !strings.Contains(err.Error(), "sha256 none") {
		t.Errorf("a package no longer run from its own binary: %v, want it named", err)
	}
}

// The plan's identity covers what is measured, not where specs are.
func TestPlanSHA256(t *testing.T) {
	a, b := testPlan(2), testPlan(2)
	b.Specs[0].Path = "elsewhere/a.yaml"
	b.Runs[0].Spec = "elsewhere/a.yaml"
	if PlanSHA256(a) != PlanSHA256(b) {
		t.Error("moving the spec changed the plan's identity")
	}
	b.Runs[1].Settings.Measurement.Iterations++
	if PlanSHA256(a) == PlanSHA256(b) {
		t.Error("changing a setting kept the plan's identity")
	}
}

// FuzzJournal: no journal file, however broken, makes the loader panic,
// and what it accepts is consistent: whole lines only, forks inside the
// plan, each once.
func FuzzJournal(f *testing.F) {
	f.Add([]byte(`{"header":{"journal_version":1,"runs":2,"forks":4}}` + "\n" +
		`{"key":"x:avgt","fork":{"run":1,"fork":2,"pid":3,"iterations":[{"phase":"measurement","index":1,"ops":1,"time_ns":2}]}}` + "\n" +
		`{"end":{"time":"2026-01-02T03:04:05Z","complete":true}}` + "\n" + `{"key":"x:avgt","fork":{"ru`))
	f.Add([]byte(`{"header":{"journal_version":1,"runs":1}}` + "\n" + `{"fork":{"run":0,"fork":1}}` + "\n" + `{"fork":{"run":0,"fork":1}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseJournal("j", data)
		if err != nil {
			return
		}
		if st.size <= 0 || st.size > int64(len(data)) || data[st.size-1] != '\n' {
			t.Fatalf("size %d of %d bytes does not end a line", st.size, len(data))
		}
		seen := map[forkID]bool{}
		for _, f := range st.Forks {
			id := forkID{f.Run, f.Fork}
			if f.Run < 0 || f.Run >= st.Header.Runs || f.Fork < 1 || seen[id] {
				t.Fatalf("fork %+v accepted", id)
			}
			seen[id] = true
		}
	})
}
