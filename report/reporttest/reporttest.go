// Package reporttest holds the report fixture and the golden-file helper
// that the tests of the packages reading a report share (report/format,
// report/format/html, cmd/benchspec/internal/runlog, cmd/benchspec). Package report's
// own tests keep their copy of the fixture: they are inside report, which
// this package imports.
package reporttest

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
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

func init() {
	// package report's own tests define -update too, and import this
	// package from their external test files
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

// Golden compares got with testdata/name, or rewrites it with -update.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if flag.Lookup("update").Value.String() == "true" {
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

// Settings returns typical settings for a mode.
func Settings(timeUnit string, forks, warmupForks, warmupIts, measureIts int) spec.Settings {
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

// Timed returns an iteration of ops operations at perOpNs each.
func Timed(phase string, index int, ops, perOpNs float64) protocol.Iteration {
	return protocol.Iteration{Phase: phase, Index: index, Ops: ops, TimeNs: ops * perOpNs, Invocations: uint64(ops)}
}

// Sampled returns a sample-mode iteration holding the samples lo..hi ns.
func Sampled(phase string, index, lo, hi int) protocol.Iteration {
	h := &hist.Histogram{}
	for v := lo; v <= hi; v++ {
		h.Record(float64(v))
	}
	s := h.Snapshot()
	return protocol.Iteration{Phase: phase, Index: index, Ops: float64(h.Count()), TimeNs: h.Sum(),
		Invocations: h.Count(), Histogram: &s}
}

// Fork returns a successful fork result.
func Fork(run, n int, warmup bool, its ...protocol.Iteration) protocol.ForkResult {
	return protocol.ForkResult{Run: run, Fork: n, Warmup: warmup, PID: 1000 + 10*run + n,
		Wall: time.Duration(2+n) * time.Second, Timer: protocol.TimerCalibration{ResolutionNs: 30 + float64(n), OverheadNs: 20},
		Iterations: its}
}

// Fixture is a plan of five runs — avgt with a warmup fork and fork
// metrics, thrpt with a single iteration, sample, ss with a failed fork —
// with their fork results and a fixed environment.
func Fixture() (*plan.Plan, []protocol.ForkResult, report.Env) {
	const W, M = protocol.PhaseWarmup, protocol.PhaseMeasurement
	ss := Settings("us", 2, 0, 0, 2)
	ss.Measurement.BatchSize = 1000
	p := &plan.Plan{
		Suite:    "seeds",
		Specs:    []plan.SpecRef{{Path: "bench/seeds.yaml", SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}},
		Estimate: 2 * time.Minute,
		Runs: []plan.Run{
			{Index: 0, Key: "counter.Inc1?size=10#avgt", Benchmark: "counter.Inc1", Params: []plan.Param{{Name: "size", Value: "10"}},
				Mode: spec.ModeAverageTime, Settings: Settings("ns", 2, 1, 2, 3), Spec: "bench/seeds.yaml", Entry: 0, Estimate: 45 * time.Second},
			{Index: 1, Key: "counter.Inc1?size=1000#thrpt", Benchmark: "counter.Inc1", Params: []plan.Param{{Name: "size", Value: "1000"}},
				Mode: spec.ModeThroughput, Settings: Settings("us", 1, 0, 1, 1), Spec: "bench/seeds.yaml", Entry: 0, Estimate: 15 * time.Second},
			{Index: 2, Key: "log.Classic#sample", Benchmark: "log.Classic", Mode: spec.ModeSampleTime,
				Settings: Settings("us", 1, 0, 1, 2), Spec: "bench/seeds.yaml", Entry: 1, Estimate: 20 * time.Second},
			{Index: 3, Key: "sqrt.Crash#ss", Benchmark: "sqrt.Crash", Mode: spec.ModeSingleShot,
				Settings: ss, Spec: "bench/seeds.yaml", Entry: 2, Estimate: 40 * time.Second},
		},
	}
	avgt := func(n int, warmup bool, scores ...float64) protocol.ForkResult {
		f := Fork(0, n, warmup, Timed(W, 1, 1e6, 100), Timed(W, 2, 1e6, 50))
		for i, s := range scores {
			f.Iterations = append(f.Iterations, Timed(M, i+1, 1e6, s))
		}
		return f
	}
	warm := avgt(1, true, 1000, 1000, 1000) // far off: must not count
	f2, f3 := avgt(2, false, 10, 11, 12), avgt(3, false, 12, 13, 14)
	f2.Metrics = map[string]float64{"allocs/op": 2}
	f3.Metrics = map[string]float64{"allocs/op": 4}
	crashed := Fork(3, 2, false, protocol.Iteration{Phase: M, Index: 1, Ops: 1000, TimeNs: 5e5, Invocations: 1})
	crashed.ExitStatus, crashed.Err = 2, "exit status 2"
	crashed.StderrTail = "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n"
	forks := []protocol.ForkResult{
		f3, warm, f2, // out of order on purpose
		Fork(1, 1, false, Timed(W, 1, 4e6, 250), Timed(M, 1, 5e6, 200)),
		Fork(2, 1, false, Sampled(W, 1, 1, 100), Sampled(M, 1, 1, 500), Sampled(M, 2, 501, 1000)),
		Fork(3, 1, false, Timed(M, 1, 1000, 400), Timed(M, 2, 1000, 600)),
		crashed,
	}
	env := report.Env{
		ToolVersion: "v0.1.0", GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		CPU: "Test CPU @ 3.00GHz", NumCPU: 8, GOMAXPROCS: 8, Hostname: "bench-host",
		Start: time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC),
		End:   time.Date(2025, 1, 2, 3, 9, 5, 0, time.UTC),
	}
	return p, forks, env
}

// EdgeScores is a plan of the scores three decimals misread (issue 19):
// edge.Zero, whose every iteration took no time (score 0, error 0, as
// the JSON has them), and edge.Tiny, 12.4 ns per call in seconds (about
// 1.24e-8 s/op with an error a seventh of it), with their fork results
// and the fixture's environment.
func EdgeScores() (*plan.Plan, []protocol.ForkResult, report.Env) {
	const W, M = protocol.PhaseWarmup, protocol.PhaseMeasurement
	_, _, env := Fixture()
	p := &plan.Plan{
		Suite: "edges",
		Runs: []plan.Run{
			{Index: 0, Key: "edge.Zero#avgt", Benchmark: "edge.Zero", Mode: spec.ModeAverageTime, Settings: Settings("ns", 1, 0, 1, 3)},
			{Index: 1, Key: "edge.Tiny#avgt", Benchmark: "edge.Tiny", Mode: spec.ModeAverageTime, Settings: Settings("s", 1, 0, 1, 3)},
		},
	}
	forks := []protocol.ForkResult{
		Fork(0, 1, false, Timed(W, 1, 1e6, 0), Timed(M, 1, 1e6, 0), Timed(M, 2, 1e6, 0), Timed(M, 3, 1e6, 0)),
		Fork(1, 1, false, Timed(W, 1, 1e6, 13), Timed(M, 1, 1e6, 12.3), Timed(M, 2, 1e6, 12.5), Timed(M, 3, 1e6, 12.4)),
	}
	return p, forks, env
}

// Group is a plan of a group and a benchmark after it: rw (JMH's
// @Group) in throughput mode, a writer on 1 thread at 100 ns per op and
// 3 readers at readNs per op each, 2 forks of 3 measurement iterations;
// then counter.Inc, avgt. Every member's part of an iteration is timed
// over the iteration's window, as the fork reports thrpt, so the group's
// ops are its members' sum. With the fork results and the fixture's
// environment.
func Group(readNs float64) (*plan.Plan, []protocol.ForkResult, report.Env) {
	const W, M = protocol.PhaseWarmup, protocol.PhaseMeasurement
	_, _, env := Fixture()
	rw := plan.Run{Index: 0, Key: "rw/threads=write:1,read:3:thrpt", Benchmark: "rw", Mode: spec.ModeThroughput,
		Settings: Settings("us", 2, 0, 1, 3), Spec: "bench/groups.yaml", Entry: 0, Estimate: 10 * time.Second,
		Group: []protocol.Member{{Name: "write", Threads: 1}, {Name: "read", Threads: 3}}}
	rw.Settings.Threads, rw.Settings.GroupThreads = 4, map[string]int{"write": 1, "read": 3}
	p := &plan.Plan{
		Suite: "groups",
		Specs: []plan.SpecRef{{Path: "bench/groups.yaml", SHA256: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"}},
		Runs: []plan.Run{rw, {Index: 1, Key: "counter.Inc:avgt", Benchmark: "counter.Inc", Mode: spec.ModeAverageTime,
			Settings: Settings("ns", 2, 0, 1, 3), Spec: "bench/groups.yaml", Entry: 1, Estimate: 10 * time.Second}},
	}
	iteration := func(phase string, index int, jitter float64) protocol.Iteration {
		const window = 1e9
		write := protocol.Iteration{Ops: window / 100 * jitter, TimeNs: window}
		read := protocol.Iteration{Ops: 3 * window / readNs / jitter, TimeNs: window}
		write.Invocations, read.Invocations = uint64(write.Ops), uint64(read.Ops)
		return protocol.Iteration{Phase: phase, Index: index, Ops: write.Ops + read.Ops, TimeNs: window,
			Invocations: write.Invocations + read.Invocations, Members: []protocol.Iteration{write, read}}
	}
	var forks []protocol.ForkResult
	for n := 1; n <= 2; n++ {
		f := Fork(0, n, false, iteration(W, 1, 0.5))
		for i := 1; i <= 3; i++ {
			f.Iterations = append(f.Iterations, iteration(M, i, 1+0.01*float64(n+i)))
		}
		f.Metrics = map[string]float64{"allocs/op": float64(n)}
		forks = append(forks, f, Fork(1, n, false, Timed(W, 1, 1e6, 20), Timed(M, 1, 1e6, 10), Timed(M, 2, 1e6, 11), Timed(M, 3, 1e6, 12)))
	}
	return p, forks, env
}
