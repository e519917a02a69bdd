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
	"github.com/benchspec/benchspec/report"
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
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--verbose") // the run log, not on a terminal
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

// A run with `precision` starts with its forks and adds real forks until
// its error is within the target or a bound is hit; plan shows the
// bounds and the report records why the run stopped and what it cost.
func TestPrecisionAddsForksUntilABound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts forks")
	}
	// A target no benchmark meets on a 2-core machine (±0.0001 %): the
	// fork bound must end it, after more forks than planned.
	spec := writeSpec(t, quick+`  - include: '^e2e\.work$'
    precision: {error: 0.0001%, max_forks: 4, max_time: 10m, max_iterations: 7}
  - include: '^e2e\.empty$'
    forks: 2
    precision: {error: 5000%}
`)
	r := suite(t, "plan", spec)
	if r.Code != 0 || !strings.Contains(r.Stdout, "2..4 until ±0.0001% or 10m0s") || !strings.Contains(r.Stdout, "2..100 until ±5000% or 10m0s") ||
		!strings.Contains(r.Stdout, "3..7 × 20ms") || !strings.Contains(r.Stdout, "3..30 × 20ms") {
		t.Fatalf("plan: exit %d, want the precision bounds in the forks column:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	if r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet"); r.Code != 0 {
		t.Fatalf("run: exit %d: %s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	byName := map[string]*report.Run{}
	for i := range rep.Runs {
		byName[rep.Runs[i].Benchmark] = &rep.Runs[i]
	}
	work, empty := byName["e2e.work"], byName["e2e.empty"]
	if work == nil || empty == nil || work.Precision == nil || empty.Precision == nil {
		t.Fatalf("runs %v: want e2e.work and e2e.empty, each with its precision record", rep.Runs)
	}
	if p := work.Precision; p.Reason != report.StopMaxForks || p.Forks != 4 || len(work.Forks) != 4 || len(work.Primary.RawData) != 4 ||
		p.WallNs <= 0 || !(float64(p.Error) > 0.000001) || work.Primary.Variance.TargetError != 0.000001 {
		t.Errorf("e2e.work: precision %+v, %d forks; want stopped at max_forks after 4 real forks, its cost and the error it reached", *p, len(work.Forks))
	}
	// Added forks run the run's 3 measurement iterations or more, up to
	// max_iterations, as the variance components ask; the record says
	// how many each ran, and the raw data has them all.
	if p := work.Precision; len(p.ForkIterations) == 4 {
		for i, n := range p.ForkIterations {
			if n < 3 || n > 7 || (i < 2 && n != 3) || len(work.Primary.RawData[i]) != n {
				t.Errorf("e2e.work: fork %d ran %d measurement iterations (%d values); want 3 for the planned forks, 3..7 for added ones", i+1, n, len(work.Primary.RawData[i]))
			}
		}
		if !(p.ForkCostNs > 0) || !(p.IterationCostNs >= 2e7) {
			t.Errorf("e2e.work: fork cost %v ns, iteration cost %v ns; want both measured, an iteration at least its 20 ms", p.ForkCostNs, p.IterationCostNs)
		}
	} else {
		t.Errorf("e2e.work: iterations per fork %v, want 4", p.ForkIterations)
	}
	// ±5000 % is met by 3 forks whatever the load (t(0.9995, 2)/√3 = 18.2
	// times the fork means' coefficient of variation, which a busy machine
	// can push past 100 % for an empty loop, never past 275 %), perhaps by
	// the 2 planned ones: the record says precise with the error under it.
	if p := empty.Precision; p.Reason != report.StopPrecise || p.Forks < 2 || p.Forks != len(empty.Forks) || !(float64(p.Error) <= 50) {
		t.Errorf("e2e.empty: precision %+v with %d forks; want precise within ±5000 %%", *p, len(empty.Forks))
	}
}
