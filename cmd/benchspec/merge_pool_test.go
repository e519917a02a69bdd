package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
)

// TestMergePoolRealBatches runs one benchmark twice with one fork each,
// as the batches of one side of A, B, A, B, … would, pools them with
// merge --pool, and checks the pool: two forks, each from its batch, the
// score between the batches' and an error (one fork has none). A batch
// with other iterations is refused, naming both files, the run and the
// field, and nothing is written; without --pool the batches collide.
func TestMergePoolRealBatches(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	const body = `version: 1
name: strings
defaults:
  forks: 1
  warmup:      {iterations: 1, time: 10ms}
  measurement: {iterations: %d, time: 10ms}
  timeout: 1m
benchmarks:
  - package: strings
    include: '^BenchmarkIndexByte$'
`
	spec2 := writeRunSpec(t, strings.Replace(body, "%d", "2", 1))
	spec3 := writeRunSpec(t, strings.Replace(body, "%d", "3", 1))
	dir := t.TempDir()
	batch := func(spec, name string) (string, *report.Report) {
		out := filepath.Join(dir, name)
		if status, _, stderr := runCmd(t, "run", spec, "--format", "json", "--out", out, "--quiet"); status != exitOK {
			t.Fatalf("run %s = %d; stderr:\n%s", name, status, stderr)
		}
		return out, readFixture(t, out)
	}
	a1, r1 := batch(spec2, "a1.json")
	a2, r2 := batch(spec2, "a2.json")

	pooled := filepath.Join(dir, "a.json")
	if status, _, stderr := runCmd(t, "merge", "--pool", a1, a2, "--out", pooled); status != exitOK || stderr != "" {
		t.Fatalf("merge --pool = %d; stderr:\n%s", status, stderr)
	}
	got := readFixture(t, pooled)
	if len(got.Runs) != 1 || got.Runs[0].Primary == nil {
		t.Fatalf("pooled report: %d runs, want IndexByte measured", len(got.Runs))
	}
	run, p := got.Runs[0], got.Runs[0].Primary
	s1, s2 := r1.Runs[0].Primary.Score, r2.Runs[0].Primary.Score
	if len(run.Forks) != 2 || p.Variance.Forks != 2 || run.Settings.Forks != 2 || len(p.RawData) != 2 || p.Count != 4 {
		t.Errorf("pooled run: %d forks, variance over %d, settings.forks %d, raw data %v, count %d; want 2 forks of 2 values",
			len(run.Forks), p.Variance.Forks, run.Settings.Forks, p.RawData, p.Count)
	}
	if lo, hi := min(s1, s2), max(s1, s2); p.Score < lo || p.Score > hi || !p.ScoreError.Valid() {
		t.Errorf("pooled score %v ± %v; want between the batches' %v and %v, with an error", p.Score, p.ScoreError, s1, s2)
	}
	for i, want := range []string{a1, a2} {
		f := run.Forks[i]
		if f.Fork != i+1 || f.Pooled == nil || f.Pooled.Report != want || f.Pooled.Fork != 1 || f.PID != []*report.Report{r1, r2}[i].Runs[0].Forks[0].PID {
			t.Errorf("fork %d: number %d, pooled from %+v, pid %d; want fork 1 of %s", i+1, f.Fork, f.Pooled, f.PID, want)
		}
	}

	a3, _ := batch(spec3, "a3.json")
	refused := filepath.Join(dir, "refused.json")
	status, _, stderr := runCmd(t, "merge", "--pool", a1, a3, "--out", refused)
	for _, want := range []string{a1 + " and " + a3, `run "` + r1.Runs[0].Key + `"`, "settings.measurement", "not the same measurement; nothing written"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("merge --pool of other iterations: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(refused); status != exitUsage || err == nil {
		t.Errorf("merge --pool of other iterations: status %d, output %v; want 2 and nothing written", status, err)
	}
	if status, _, stderr := runCmd(t, "merge", a1, a2); status != exitUsage || !strings.Contains(stderr, "colliding runs") {
		t.Errorf("merge without --pool: status %d, want 2 and collisions:\n%s", status, stderr)
	}
}
