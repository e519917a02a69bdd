package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// settings returns typical settings for a mode.
func settings(timeUnit string, forks, warmupForks, warmupIts, measureIts int) spec.Settings {
	return spec.Settings{
		TimeUnit:    timeUnit,
		Forks:       forks,
		WarmupForks: warmupForks,
		Settings: protocol.Settings{
			Warmup:           spec.Iterations{Iterations: warmupIts, Time: time.Second, BatchSize: 1},
			Measurement:      spec.Iterations{Iterations: measureIts, Time: time.Second, BatchSize: 1},
			OpsPerInvocation: 1,
			Threads:          1,
		},
		Timeout: 10 * time.Minute,
		Env:     map[string]string{},
	}
}

// timed returns an iteration of ops operations at perOpNs each.
func timed(phase string, index int, ops, perOpNs float64) protocol.Iteration {
	return protocol.Iteration{Phase: phase, Index: index, Ops: ops, TimeNs: ops * perOpNs, Invocations: uint64(ops)}
}

// sampled returns a sample-mode iteration holding the samples lo..hi ns.
func sampled(phase string, index, lo, hi int) protocol.Iteration {
	h := &hist.Histogram{}
	for v := lo; v <= hi; v++ {
		h.Record(float64(v))
	}
	s := h.Snapshot()
	return protocol.Iteration{Phase: phase, Index: index, Ops: float64(h.Count()), TimeNs: h.Sum(),
		Invocations: h.Count(), Histogram: &s}
}

// fork returns a successful fork result.
func fork(run, n int, warmup bool, its ...protocol.Iteration) protocol.ForkResult {
	return protocol.ForkResult{Run: run, Fork: n, Warmup: warmup, PID: 1000 + 10*run + n,
		Wall: time.Duration(2+n) * time.Second, Timer: protocol.TimerCalibration{ResolutionNs: 30 + float64(n), OverheadNs: 20},
		Iterations: its}
}

// fixture is a plan of five runs — avgt with a warmup fork and fork
// metrics, thrpt with a single iteration, sample, ss with a failed fork —
// with their fork results and a fixed environment. It is
// report/reporttest.Fixture, which these tests cannot import: that
// package imports report.
func fixture() (*plan.Plan, []protocol.ForkResult, Env) {
	const W, M = protocol.PhaseWarmup, protocol.PhaseMeasurement
	ss := settings("us", 2, 0, 0, 2)
	ss.Measurement.BatchSize = 1000
	p := &plan.Plan{
		Suite:    "seeds",
		Specs:    []plan.SpecRef{{Path: "bench/seeds.yaml", SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}},
		Estimate: 2 * time.Minute,
		Runs: []plan.Run{
			{Index: 0, Key: "counter.Inc1?size=10#avgt", Benchmark: "counter.Inc1", Params: []plan.Param{{Name: "size", Value: "10"}},
				Mode: spec.ModeAverageTime, Settings: settings("ns", 2, 1, 2, 3), Spec: "bench/seeds.yaml", Entry: 0, Estimate: 45 * time.Second},
			{Index: 1, Key: "counter.Inc1?size=1000#thrpt", Benchmark: "counter.Inc1", Params: []plan.Param{{Name: "size", Value: "1000"}},
				Mode: spec.ModeThroughput, Settings: settings("us", 1, 0, 1, 1), Spec: "bench/seeds.yaml", Entry: 0, Estimate: 15 * time.Second},
			{Index: 2, Key: "log.Classic#sample", Benchmark: "log.Classic", Mode: spec.ModeSampleTime,
				Settings: settings("us", 1, 0, 1, 2), Spec: "bench/seeds.yaml", Entry: 1, Estimate: 20 * time.Second},
			{Index: 3, Key: "sqrt.Crash#ss", Benchmark: "sqrt.Crash", Mode: spec.ModeSingleShot,
				Settings: ss, Spec: "bench/seeds.yaml", Entry: 2, Estimate: 40 * time.Second},
		},
	}
	avgt := func(n int, warmup bool, scores ...float64) protocol.ForkResult {
		f := fork(0, n, warmup, timed(W, 1, 1e6, 100), timed(W, 2, 1e6, 50))
		for i, s := range scores {
			f.Iterations = append(f.Iterations, timed(M, i+1, 1e6, s))
		}
		return f
	}
	warm := avgt(1, true, 1000, 1000, 1000) // far off: must not count
	f2, f3 := avgt(2, false, 10, 11, 12), avgt(3, false, 12, 13, 14)
	f2.Metrics = map[string]float64{"allocs/op": 2}
	f3.Metrics = map[string]float64{"allocs/op": 4}
	crashed := fork(3, 2, false, protocol.Iteration{Phase: M, Index: 1, Ops: 1000, TimeNs: 5e5, Invocations: 1})
	crashed.ExitStatus, crashed.Err = 2, "exit status 2"
	crashed.StderrTail = "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n"
	forks := []protocol.ForkResult{
		f3, warm, f2, // out of order on purpose
		fork(1, 1, false, timed(W, 1, 4e6, 250), timed(M, 1, 5e6, 200)),
		fork(2, 1, false, sampled(W, 1, 1, 100), sampled(M, 1, 1, 500), sampled(M, 2, 501, 1000)),
		fork(3, 1, false, timed(M, 1, 1000, 400), timed(M, 2, 1000, 600)),
		crashed,
	}
	env := Env{
		ToolVersion: "v0.1.0", GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		CPU: "Test CPU @ 3.00GHz", NumCPU: 8, GOMAXPROCS: 8, Hostname: "bench-host",
		Start: time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC),
		End:   time.Date(2025, 1, 2, 3, 9, 5, 0, time.UTC),
	}
	return p, forks, env
}
