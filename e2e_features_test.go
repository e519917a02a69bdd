package benchspec_test

import (
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchspec/benchspec"
)

func init() {
	benchspec.Register("e2e.alloc", func(b *benchspec.B) {
		for b.Loop() {
			allocSink = make([]byte, 1024)
		}
	})
	benchspec.Register("e2e.badSetup", func(b *benchspec.B) {
		b.Fatalf("cannot open fixture %q", "missing.dat")
		for b.Loop() {
		}
	})
	benchspec.Register("e2e.grid", func(b *benchspec.B) {
		n := b.IntParam("n")
		s := b.Param("s")
		for b.Loop() {
			benchspec.Sink(n + len(s))
		}
	}, benchspec.IntParams{"n": {1}}, benchspec.Params{"s": {"x"}})
	benchspec.Register("e2e.overlap", overlap)
}

var allocSink []byte

// inLoop[i] is the iteration thread i of e2e.overlap has entered its
// timed loop for (counted by its SetupIteration hooks).
var inLoop [2]atomic.Int64

// overlap proves that its two threads are inside their timed windows at
// the same time, in every iteration, however busy the machine: the first
// op of each iteration waits until the other thread has entered its loop
// for that iteration too. Threads run one after the other would wait
// forever (the fork's timeout then fails the run). Thread 0 reports how
// many iterations met.
func overlap(b *benchspec.B) {
	me, other := b.Thread(), 1-b.Thread()
	var iter int64
	met, first := 0, false
	b.SetupIteration(func() { iter++; first = true })
	for b.Loop() {
		if first {
			first = false
			inLoop[me].Store(iter)
			for inLoop[other].Load() < iter {
				runtime.Gosched()
			}
			met++
		}
	}
	if me == 0 {
		b.ReportMetric(float64(met), "met")
	}
}

func TestParamSweepLabelsEveryRun(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.grid$'
    forks: 1
    measurement: {iterations: 1, time: 5ms}
    warmup: {iterations: 0}
    params: {n: [1, 2, 3], s: [a, bb]}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	var got []string
	for _, run := range rep.Runs {
		got = append(got, run.Params["n"]+"/"+run.Params["s"])
	}
	if want := "1/a 1/bb 2/a 2/bb 3/a 3/bb"; strings.Join(got, " ") != want {
		t.Errorf("runs %v, want the 3 × 2 product %s", got, want)
	}
}

func TestWarmupForksAndSetupFailure(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.empty$'
    warmup_forks: 1
  - include: '^e2e\.badSetup$'
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out)
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1 (the setup failure): %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "# Warmup Fork: 1 of 1") {
		t.Errorf("run log does not show the warmup fork:\n%s", r.Stderr)
	}
	rep, _ := readReport(t, out)
	empty, bad := rep.Runs[0], rep.Runs[1]
	if len(empty.Forks) != 3 || !empty.Forks[0].Warmup || empty.Forks[1].Warmup {
		t.Errorf("forks of the empty run: %+v; want a warmup fork then 2 measured ones", empty.Forks)
	}
	if empty.Primary == nil || empty.Primary.Count != 6 || len(empty.Primary.RawData) != 2 {
		t.Errorf("the warmup fork must stay out of the statistics: %+v", empty.Primary)
	}
	if !bad.Failed() || !strings.Contains(bad.Error, `cannot open fixture "missing.dat"`) {
		t.Errorf("setup failure: status %s error %q", bad.Status, bad.Error)
	}
}

// TestThreadsOverlapInForks: the threads of a fork run their iterations
// at the same time. e2e.overlap can finish an iteration only when both
// of its threads are inside their timed loops together; it counts the
// iterations where they met.
func TestThreadsOverlapInForks(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.overlap$'
    modes: [thrpt]
    forks: 1
    threads: 2
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d, want 0 (a thread that waits for the other past the timeout fails the run): %s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	run := rep.Runs[0]
	if run.Threads != 2 || run.Primary == nil || !(run.Primary.Score > 0) {
		t.Errorf("threads %d, metric %+v", run.Threads, run.Primary)
	}
	// quick: 1 warmup and 3 measurement iterations.
	if m, ok := run.SecondaryMetrics["met"]; !ok || m.Score != 4 {
		t.Errorf("the threads met in %+v iterations, want all 4", m)
	}
}

func TestGCProfilerAndCPUProfile(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.alloc$'
    forks: 1
    profilers: [gc, cpu, heap]
    measurement: {iterations: 2, time: 100ms}
`)
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet", "--profiles", filepath.Join(dir, "prof"))
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	run := rep.Runs[0]
	// What else the fork allocates between the gc profiler's readings
	// (the cpu profiler's writer among others: up to some KiB in some
	// hundred objects per iteration) is spread over an iteration's ops,
	// which a busy machine makes few: the tolerance follows the fewest
	// ops of a measurement iteration.
	minOps := math.Inf(1)
	for _, it := range run.Forks[0].Iterations {
		if it.Phase == "measurement" {
			minOps = min(minOps, float64(it.Ops))
		}
	}
	for _, tc := range []struct {
		unit        string
		want, stray float64
	}{{"B/op", 1024, 64 << 10}, {"allocs/op", 1, 256}} {
		m, ok := run.SecondaryMetrics[tc.unit]
		tol := max(0.5, tc.stray/minOps)
		if !ok || float64(m.Score) < tc.want-tol || float64(m.Score) > tc.want+tol {
			t.Errorf("%s = %+v, want %v ± %.2g (the fewest ops of an iteration: %v)", tc.unit, m, tc.want, tol, minOps)
		}
	}
	cpu := run.Forks[0].Profiles["cpu"]
	if cpu == "" || run.Forks[0].Profiles["heap"] == "" {
		t.Fatalf("profiles listed: %v", run.Forks[0].Profiles)
	}
	if testing.Short() {
		return
	}
	top, err := exec.Command("go", "tool", "pprof", "-top", cpu).CombinedOutput()
	if err != nil || !strings.Contains(string(top), "flat") {
		t.Errorf("go tool pprof -top %s: %v\n%s", cpu, err, top)
	}
}
