package benchspec_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/schemas"
	"github.com/xeipuuv/gojsonschema"
)

// The test binary is its own benchmark suite (examples/suitetest): every
// test here goes through the real CLI, real subprocess forks and the real
// report, end to end.
func TestMain(m *testing.M) { suitetest.Main(m) }

func init() {
	benchspec.Register("e2e.empty", func(b *benchspec.B) {
		for b.Loop() {
		}
	})
	benchspec.Register("e2e.work", func(b *benchspec.B) {
		x := 1.0
		for b.Loop() {
			x = math.Sqrt(x + 2)
		}
		benchspec.Sink(x)
	})
	benchspec.Register("e2e.panics", func(b *benchspec.B) {
		n := 0
		for b.Loop() {
			if n++; n == 1000 {
				panic("boom at invocation 1000")
			}
		}
	})
	benchspec.Register("e2e.exits", func(b *benchspec.B) {
		for b.Loop() {
			os.Exit(3)
		}
	})
	benchspec.Register("e2e.hangs", func(b *benchspec.B) {
		for b.Loop() {
			select {} // every goroutine asleep would be fatal; the timer keeps one awake
		}
	})
	benchspec.Register("e2e.gomaxprocs", func(b *benchspec.B) {
		for b.Loop() {
		}
		b.ReportMetric(float64(gomaxprocs()), "gomaxprocs")
	})
	benchspec.Register("e2e.sized", func(b *benchspec.B) {
		n := b.IntParam("size")
		s := make([]int, n)
		for b.Loop() {
			for i := range s {
				s[i]++
			}
		}
		benchspec.Sink(s)
	}, benchspec.Params{"size": {"10", "100"}})
}

// suite runs the test binary as a suite with args.
func suite(t *testing.T, args ...string) suitetest.Result { return suitetest.Exec(t, args...) }

// writeSpec writes a spec file into a temporary directory.
func writeSpec(t *testing.T, body string) string { return suitetest.WriteSpec(t, body) }

const quick = `version: 1
name: e2e
defaults:
  forks: 2
  warmup:      {iterations: 1, time: 20ms}
  measurement: {iterations: 3, time: 20ms}
  timeout: 5s
benchmarks:
`

func readReport(t *testing.T, path string) (*report.Report, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reading the report: %v", err)
	}
	return rep, data
}

func validateResult(t *testing.T, data []byte) {
	t.Helper()
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schemas.Result), gojsonschema.NewBytesLoader(data))
	if err != nil {
		t.Fatalf("validating: %v", err)
	}
	for _, e := range res.Errors() {
		t.Errorf("report does not match result.schema.json: %s", e)
	}
}

func TestRunEndToEnd(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.(empty|work)$'
    modes: [avgt, thrpt]
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--verbose") // the run log, not on a terminal
	if r.Code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{"# Benchmark: e2e.work", "# Fork: 2 of 2", "# Warmup Iteration   1:", "Iteration   3:", `Result "e2e.empty":`} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("run log lacks %q:\n%s", want, r.Stderr)
		}
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	if !rep.Complete || len(rep.Runs) != 4 {
		t.Fatalf("complete=%v with %d runs, want a complete report of 4", rep.Complete, len(rep.Runs))
	}
	pids := map[int]bool{}
	for _, run := range rep.Runs {
		if run.Failed() || run.Primary == nil {
			t.Errorf("%s failed: %s", run.Key, run.Error)
			continue
		}
		m := run.Primary
		if !(m.Score > 0) || m.Count != 6 || len(m.RawData) != 2 || len(m.RawData[0]) != 3 || !m.ScoreError.Valid() {
			t.Errorf("%s: score %v ± %v, cnt %d, raw %v: want a positive score with an error from 2 forks × 3 iterations", run.Key, m.Score, m.ScoreError, m.Count, m.RawData)
		}
		for _, f := range run.Forks {
			if f.PID == 0 || f.PID == r.PID || pids[f.PID] {
				t.Errorf("%s fork %d: pid %d is not a fresh process (parent %d)", run.Key, f.Fork, f.PID, r.PID)
			}
			pids[f.PID] = true
		}
	}
	if got := rep.Runs[0].Primary.ScoreUnit; got != "ns/op" {
		t.Errorf("avgt unit %q, want ns/op", got)
	}
	if got := rep.Runs[1].Primary.ScoreUnit; got != "ops/ns" {
		t.Errorf("thrpt unit %q, want ops/ns", got)
	}
}

func TestTableOnStdout(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.sized$'
    forks: 1
`)
	r := suite(t, "run", spec, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	if r.Stderr != "" {
		t.Errorf("--quiet still wrote to stderr:\n%s", r.Stderr)
	}
	// the table ends at the first blank line; footnotes may follow
	table, _, _ := strings.Cut(r.Stdout, "\n\n")
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows (size 10 and 100), got:\n%s", r.Stdout)
	}
	for i, want := range [][]string{{"Benchmark", "(size)", "Mode", "Cnt", "Score", "Error", "Units"}, {"e2e.sized", "10", "avgt", "3"}, {"e2e.sized", "100", "avgt", "3"}} {
		fields := strings.Fields(lines[i])
		for j, w := range want {
			if j >= len(fields) || fields[j] != w {
				t.Errorf("line %d = %q, want it to start with %q", i, lines[i], want)
				break
			}
		}
	}
}

func TestFailingForksFailOnlyTheirRun(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.(panics|exits|empty)$'
  - include: '^e2e\.hangs$'
    timeout: 10s
    warmup: {iterations: 0}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	start := time.Now()
	r := suite(t, "run", spec, "--format", "json", "--out", out)
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.Code, r.Stderr)
	}
	// Generous for a busy machine, far below the 10 min a hang would
	// cost without its timeout; 10 s, not less, so that a slow fork start
	// on a busy machine is not taken for the hang.
	if d := time.Since(start); d > 2*time.Minute {
		t.Errorf("the batch took %s; the hanging fork should have been killed after 10s", d)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	want := map[string]string{
		"e2e.empty:avgt":  "",
		"e2e.exits:avgt":  "fork 1: fork exited with status 3",
		"e2e.hangs:avgt":  "fork 1: timed out after 10s in measurement iteration 1",
		"e2e.panics:avgt": "fork 1: panic: boom at invocation 1000",
	}
	for _, run := range rep.Runs {
		w, ok := want[run.Key]
		if !ok {
			t.Errorf("unexpected run %s", run.Key)
			continue
		}
		delete(want, run.Key)
		if w == "" {
			if run.Failed() || run.Primary == nil || !(run.Primary.Score > 0) {
				t.Errorf("%s: status %s (%s), want a healthy result", run.Key, run.Status, run.Error)
			}
			continue
		}
		if !run.Failed() || run.Primary != nil || !strings.HasPrefix(run.Error, w) {
			t.Errorf("%s: status %s, error %q, metric %v; want failed with %q and no numbers", run.Key, run.Status, run.Error, run.Primary, w)
		}
	}
	for k := range want {
		t.Errorf("run %s missing from the report", k)
	}
	for _, run := range rep.Runs {
		if run.Key == "e2e.panics:avgt" && !strings.Contains(run.StderrTail, "panic: boom at invocation 1000") {
			t.Errorf("panicking run's stderr tail lacks the panic:\n%s", run.StderrTail)
		}
	}
}

func TestInvalidSpecExits2WithPositions(t *testing.T) {
	spec := writeSpec(t, `version: 1
name: bad
defaults:
  forkz: 3
  modes: [avgt, fast]
  warmup: {time: 1 sec}
benchmarks:
  - include: '^e2e\.empty$'
    forks: three
  - include: '(unclosed'
`)
	r := suite(t, "validate", spec)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2; stderr:\n%s", r.Code, r.Stderr)
	}
	want := []string{
		spec + ":4:3: ",
		spec + ":5:17: ",
		spec + ":6:18: ",
		spec + ":9:12: ",
		spec + ":10:14: ",
	}
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	if len(lines) < len(want) {
		t.Fatalf("want %d errors, got:\n%s", len(want), r.Stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d = %q, want position %q", i+1, lines[i], w)
		}
	}
}

func TestUnmatchedIncludeNamesTheClosest(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.wrok$'
`)
	r := suite(t, "run", spec)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2", r.Code)
	}
	want := spec + `:9:14: include '^e2e\.wrok$' matches no registered benchmark; closest: e2e.work`
	if !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr:\n%s\nwant it to contain\n%s", r.Stderr, want)
	}
}

// A run's env reaches its forks; the forks: 0 runs of a batch share one
// process (the host), which is none of the forked runs' processes.
func TestForkEnvironmentAndInProcess(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.gomaxprocs$'
    forks: 1
    env: {GOMAXPROCS: "1"}
  - include: '^e2e\.empty$'
    forks: 0
  - include: '^e2e\.work$'
    forks: 0
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	m, ok := rep.Runs[0].SecondaryMetrics["gomaxprocs"]
	if !ok || m.Score != 1 {
		t.Errorf("GOMAXPROCS seen in the fork: %+v, want 1", rep.Runs[0].SecondaryMetrics)
	}
	forked, a, b := rep.Runs[0].Forks[0].PID, rep.Runs[1].Forks[0].PID, rep.Runs[2].Forks[0].PID
	if rep.Runs[1].Failed() || rep.Runs[2].Failed() || a == 0 || a != b || a == forked {
		t.Errorf("forks: 0 runs: %s in pid %d, %s in pid %d (forked run: pid %d); want both ok in one process of their own",
			rep.Runs[1].Status, a, rep.Runs[2].Status, b, forked)
	}
	for _, run := range rep.Runs[1:] {
		if !slices.ContainsFunc(run.Diagnostics, func(d report.Diagnostic) bool { return d.Code == "IN_PROCESS" }) {
			t.Errorf("%s: diagnostics %v, want IN_PROCESS", run.Key, run.Diagnostics)
		}
	}
}

func TestListAndPlan(t *testing.T) {
	r := suite(t, "list")
	if r.Code != 0 || !strings.Contains(r.Stdout, "e2e.sized\tsize=10,100\n") || !strings.Contains(r.Stdout, "e2e.work\n") {
		t.Errorf("list: exit %d\n%s", r.Code, r.Stdout)
	}
	spec := writeSpec(t, quick+`  - include: '^e2e\.sized$'
    modes: [avgt, thrpt]
    params: {size: [1, 2, 3]}
`)
	r = suite(t, "plan", spec)
	if r.Code != 0 || !strings.Contains(r.Stdout, "6 runs, estimated") || !strings.Contains(r.Stdout, "size=3") {
		t.Errorf("plan: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// The report carries the timer calibration of every fork.
func TestTimerCalibrationRecorded(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.empty$'
    forks: 1
`)
	out := filepath.Join(t.TempDir(), "r.json")
	if r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet"); r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	var raw map[string]any
	_, data := readReport(t, out)
	json.Unmarshal(data, &raw)
	env := raw["env"].(map[string]any)
	for _, k := range []string{"timer_resolution_ns", "timer_overhead_ns"} {
		if v, ok := env[k].(float64); !ok || v <= 0 {
			t.Errorf("env.%s = %v, want a positive measurement", k, env[k])
		}
	}
}
