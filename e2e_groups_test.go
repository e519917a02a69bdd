package benchspec_test

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report"
)

func init() {
	// One writer and readers on one RWMutex (JMH's @Group): the state is
	// setup's, one per fork, shared by every member's threads.
	benchspec.RegisterGroup("e2e.rw", func(g *benchspec.Group) {
		var mu sync.RWMutex
		table := make([]uint64, 64)
		g.Add("write", func(b *benchspec.B) {
			i := 0
			for b.Loop() {
				mu.Lock()
				table[i&63]++
				mu.Unlock()
				i++
			}
		})
		g.Add("read", func(b *benchspec.B) {
			i, sum := b.Thread(), uint64(0)
			for b.Loop() {
				mu.RLock()
				sum += table[i&63]
				mu.RUnlock()
				i++
			}
			benchspec.Sink(sum)
		})
	})
}

// A group of one writer and three readers gives a row for the group and
// one per member, with their threads; in thrpt the group's score is the
// members' sum; the JMH JSON has the group as one entry with its members
// as secondary metrics; compare pairs every row.
func TestGroupRowsThroughTheProgram(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.rw$'
    modes: [thrpt, avgt]
    group_threads: {write: 1, read: 3}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	if r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet"); r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	type row struct {
		bench   string
		threads int
	}
	want := []row{{"e2e.rw", 4}, {"e2e.rw:write", 1}, {"e2e.rw:read", 3}}
	if len(rep.Runs) != 6 {
		t.Fatalf("%d rows, want 6 (the group and its 2 members in 2 modes)", len(rep.Runs))
	}
	scores := map[string]float64{}
	for i, run := range rep.Runs {
		w := want[i%3]
		if run.Benchmark != w.bench || run.Threads != w.threads || run.Group != "e2e.rw" || run.NoScore() {
			t.Fatalf("row %d: %s threads %d group %q status %s %s, want %s on %d threads", i, run.Benchmark, run.Threads, run.Group, run.Status, run.Error, w.bench, w.threads)
		}
		scores[run.Benchmark+" "+run.Mode.String()] = float64(run.Primary.Score)
	}
	sum := scores["e2e.rw:write thrpt"] + scores["e2e.rw:read thrpt"]
	if g := scores["e2e.rw thrpt"]; math.Abs(g-sum) > 0.01*g {
		t.Errorf("group thrpt %g, members' sum %g: want within 1 %%", g, sum)
	}

	r := suite(t, "report", "--format", "jmh", out)
	var entries []struct {
		Benchmark        string
		Mode             string
		Threads          int
		PrimaryMetric    struct{ Score float64 }
		SecondaryMetrics map[string]struct{ Score float64 }
	}
	if err := json.Unmarshal([]byte(r.Stdout), &entries); err != nil {
		t.Fatalf("JMH JSON: %v\n%s", err, r.Stdout)
	}
	if len(entries) != 2 {
		t.Fatalf("%d JMH entries, want the group's 2 (its members are its secondary metrics)", len(entries))
	}
	for _, e := range entries {
		if e.Benchmark != "e2e.rw" || e.Threads != 4 || e.PrimaryMetric.Score != scores["e2e.rw "+e.Mode] {
			t.Errorf("JMH entry %+v: want e2e.rw on 4 threads with the group's score", e)
		}
		for _, m := range []string{"write", "read"} {
			if got := e.SecondaryMetrics[m].Score; got != scores["e2e.rw:"+m+" "+e.Mode] {
				t.Errorf("JMH %s secondary %q = %g, want the member's row %g", e.Mode, m, got, scores["e2e.rw:"+m+" "+e.Mode])
			}
		}
	}

	r = suite(t, "compare", out, out)
	for _, name := range []string{"e2e.rw/threads=write:1,read:3", "e2e.rw:write/threads=write:1,read:3", "e2e.rw:read/threads=write:1,read:3"} {
		if !strings.Contains(r.Stdout, name) {
			t.Errorf("compare lacks the row %s:\n%s", name, r.Stdout)
		}
	}
}

// A group's spec mistakes are found before any fork, at their positions,
// with exit 2: an unknown member, threads for a group, group_threads
// for a benchmark, and a package: entry with group_threads.
func TestGroupSpecMistakesExit2(t *testing.T) {
	for _, c := range []struct{ entry, want string }{
		{"  - include: '^e2e\\.rw$'\n    group_threads: {write: 1, raed: 3}\n", `:10:31: benchmarks[0].group_threads: group e2e.rw has no member "raed" (did you mean "read"?)`},
		{"  - include: '^e2e\\.rw$'\n    threads: 2\n", ":10:14: benchmarks[0].threads: e2e.rw is a group"},
		{"  - include: '^e2e\\.empty$'\n    group_threads: {write: 1}\n", ":10:20: benchmarks[0].group_threads: e2e.empty is a benchmark, not a group"},
		{"  - package: strings\n    include: Index\n    group_threads: {write: 1}\n", ":11:5: benchmarks[0].group_threads: package: entries run go test benchmarks, which cannot be groups"},
	} {
		spec := writeSpec(t, quick+c.entry)
		r := suite(t, "run", spec)
		if r.Code != 2 || !strings.Contains(r.Stderr, spec+c.want) {
			t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %s%s", r.Code, r.Stderr, spec, c.want)
		}
	}
}

// forks: 0 runs a group in the batch's one shared process (the host),
// in every mode: each gives the group's row and its members', scored,
// on their threads, and the host serves the run after it.
func TestGroupInTheHost(t *testing.T) {
	spec := writeSpec(t, strings.Replace(quick, "forks: 2", "forks: 0", 1)+`  - include: '^e2e\.rw$'
    modes: [thrpt, avgt, sample, ss]
    group_threads: {read: 2}
  - include: '^e2e\.empty$'
    modes: [avgt]
`)
	out := filepath.Join(t.TempDir(), "r.json")
	if r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet"); r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	if len(rep.Runs) != 13 {
		t.Fatalf("%d rows, want 13 (the group and its 2 members in 4 modes, then e2e.empty)", len(rep.Runs))
	}
	for i, run := range rep.Runs[:12] {
		bench, threads := [3]string{"e2e.rw", "e2e.rw:write", "e2e.rw:read"}[i%3], [3]int{3, 1, 2}[i%3]
		inHost := slices.ContainsFunc(run.Diagnostics, func(d report.Diagnostic) bool { return d.Code == "IN_PROCESS" })
		if run.Benchmark != bench || run.Threads != threads || run.NoScore() || !inHost {
			t.Errorf("row %d: %s (%s) on %d threads, status %s %s, in the host %v; want %s on %d threads, scored, in the host", i, run.Benchmark, run.Mode, run.Threads, run.Status, run.Error, inHost, bench, threads)
		}
	}
	if last := rep.Runs[12]; last.Benchmark != "e2e.empty" || last.NoScore() {
		t.Errorf("the run after the group: %s, status %s %s", last.Benchmark, last.Status, last.Error)
	}
}

// ab of a group judges every row, the group's and each member's, from
// the same pairs of forks: two builds of one suite, threshold 50 %, are
// unchanged or inconclusive on each row, never a change, exit 0; a
// row's pairs are its group's.
func TestABJudgesEveryRowOfAGroup(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	for _, side := range []string{"a", "b"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, side), "./examples/groups").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "ab.yaml"), []byte(`version: 1
name: ab
defaults:
  forks: 4
  warmup: {iterations: 1, time: 5ms}
  measurement: {iterations: 2, time: 10ms}
benchmarks:
  - include: '^rw$'
    modes: [thrpt]
    group_threads: {write: 1, read: 1}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, stderr, code := runAB(t, dir, "--base", "./a", "--new", "./b", "--threshold", "50%", "--max-time", "1m", "--max-pairs", "16", "ab.yaml")
	if code != 0 {
		t.Errorf("exit %d, want 0 (no change)\n%s", code, stderr)
	}
	keys := map[string]bool{}
	for _, p := range got.Comparison.Pairs {
		keys[p.Key] = true
		if p.Verdict != "unchanged" && p.Verdict != "inconclusive" || p.Base.Forks < 4 {
			t.Errorf("%s: %s after %d pairs (%s); want unchanged or inconclusive after 4 or more", p.Key, p.Verdict, p.Base.Forks, p.Reason)
		}
	}
	for _, k := range []string{"rw/threads=write:1,read:1:thrpt", "rw:write/threads=write:1,read:1:thrpt", "rw:read/threads=write:1,read:1:thrpt"} {
		if !keys[k] {
			t.Errorf("ab judged no row %s; judged %v", k, keys)
		}
	}
}
