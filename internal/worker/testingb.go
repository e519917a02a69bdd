package worker

import (
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Body is what a benchmark name is registered with: a benchspec body
// (Bind), a standard go test benchmark (Testing) or a benchmark group
// (Members, which runs the group's setup afresh: one state per call);
// exactly one is set.
type Body struct {
	Bind    Bind
	Testing func(*testing.B)
	Members func() []Member
}

// Run runs one fork's assignment with the body: RunGroup for Members,
// RunBound for a Bind, RunTesting for a func(*testing.B). A run that
// names members (Run.Group) runs a group only, and a group only runs so.
func (bd Body) Run(a *protocol.Assignment, clock Clock, rnd Rand, emit func(*protocol.Iteration) error) (*Output, error) {
	switch {
	case bd.Members != nil:
		return RunGroup(a, bd.Members, clock, rnd, emit)
	case a.Run.Group != nil:
		return nil, fmt.Errorf("benchmark %q is not a group (benchspec.RegisterGroup), but its run gives members' threads ([%s])", a.Run.Benchmark, strings.Join(protocol.MemberNames(a.Run.Group), ", "))
	case bd.Testing != nil:
		return RunTesting(a, bd.Testing, emit)
	}
	return RunBound(a, bd.Bind, clock, rnd, emit)
}

// MetricMBPerSec is the secondary metric of a go test benchmark that
// called b.SetBytes: bytes × b.N per second, in 10⁶ bytes, as go test
// prints it. Its B/op and allocs/op (MetricAllocBytes, MetricAllocs) are
// per invocation (per b.N), as in go test, whatever ops_per_invocation
// says.
const MetricMBPerSec = "MB/s"

var testingInit sync.Once

// RunTesting runs one fork's assignment with a standard benchmark
// function: every iteration is one testing.Benchmark call, exactly what
// `go test -bench` does for one -count (same b.N ramp-up, timer,
// allocation counters, `for b.Loop()` treatment). -test.benchtime is the
// phase's time (avgt, thrpt) or "Nx" with N the batch size (ss). Each
// call becomes one Iteration with JMH's arithmetic: Ops = N ×
// ops_per_invocation ÷ batch_size (ss: ops_per_invocation), metrics B/op,
// allocs/op, MB/s and b.ReportMetric units. Sample mode and threads are
// refused: testing.B never times single invocations and runs on one
// goroutine. b.Fatal/b.Error fails the fork, b.Skip skips the run (a
// *SkipError); testing.Benchmark discards its log, so no reason is given.
func RunTesting(a *protocol.Assignment, fn func(*testing.B), emit func(*protocol.Iteration) error) (*Output, error) {
	s := &a.Run.Settings
	switch {
	case a.Run.Mode.Samples():
		return nil, errors.New("sample mode is not available for a func(*testing.B) benchmark; use avgt, thrpt or ss")
	case s.Threads != 1:
		return nil, errors.New("a func(*testing.B) benchmark runs on one goroutine; use threads: 1 (and b.RunParallel inside it)")
	}
	testingInit.Do(testing.Init)
	defer restoreFlags("test.benchmem", "test.benchtime")()
	if err := flag.Set("test.benchmem", "true"); err != nil {
		return nil, fmt.Errorf("setting -test.benchmem: %w", err)
	}
	prof := newProfiler(s.Profilers, a.ProfileDir, a.Run.Key, a.Fork)
	barrier := duetBarrier(a)
	for _, p := range []struct {
		name string
		it   protocol.Phase
	}{{protocol.PhaseWarmup, s.Warmup}, {protocol.PhaseMeasurement, s.Measurement}} {
		batch := max(p.it.BatchSize, 1)
		benchtime := p.it.Time.String()
		if !a.Run.Mode.TimedIterations() {
			benchtime = strconv.Itoa(batch) + "x"
		}
		if err := flag.Set("test.benchtime", benchtime); err != nil {
			return nil, fmt.Errorf("setting -test.benchtime=%s: %w", benchtime, err)
		}
		for i := 1; i <= p.it.Iterations; i++ {
			if err := beforeIteration(s, prof, barrier); err != nil {
				return nil, err
			}
			r, err := benchmarkOnce(fn)
			if err != nil {
				return nil, err
			}
			metrics := testingMetrics(float64(r.N), r.T.Seconds(), r.Bytes, r.MemBytes, r.MemAllocs, r.Extra)
			it := TestingIteration(r.N, float64(r.T.Nanoseconds()), metrics, a.Run.Mode, float64(s.OpsPerInvocation), float64(batch))
			it.Phase, it.Index = p.name, i
			if err := emit(&it); err != nil {
				return nil, err
			}
		}
	}
	out := &Output{}
	if prof != nil {
		files, err := prof.finish()
		if err != nil {
			return nil, err
		}
		out.Profiles = files
	}
	return out, nil
}

// restoreFlags returns a function that sets the named flags back to
// their current values, so that RunTesting leaves a test binary's own
// -test.benchtime as it found it.
func restoreFlags(names ...string) func() {
	old := map[string]string{}
	for _, n := range names {
		if f := flag.Lookup(n); f != nil {
			old[n] = f.Value.String()
		}
	}
	return func() {
		for n, v := range old {
			flag.Set(n, v)
		}
	}
}

// benchmarkOnce is one testing.Benchmark call. A panic in the benchmark
// would end the process from testing's own goroutine; it is recovered in
// the benchmark's goroutine instead and returned, as RunFork does.
func benchmarkOnce(fn func(*testing.B)) (testing.BenchmarkResult, error) {
	var panicked *PanicError
	var failed, skipped bool
	r := testing.Benchmark(func(b *testing.B) {
		defer func() {
			if v := recover(); v != nil {
				panicked = &PanicError{Value: v, Stack: debug.Stack()}
				b.Fail()
			}
			failed, skipped = b.Failed(), b.Skipped()
		}()
		fn(b)
	})
	switch {
	case panicked != nil:
		return r, panicked
	case skipped:
		return r, &SkipError{Reason: "the benchmark skipped itself (b.Skip); testing.Benchmark does not keep its message"}
	case failed || r.N == 0:
		return r, errors.New("the benchmark failed (b.Error, b.Fatal or b.FailNow, or it returned before b.Loop() reported false); testing.Benchmark does not keep its log: run it under go test -bench to see it")
	}
	return r, nil
}

// TestingIteration is the Iteration of one go test benchmark result: b.N
// invocations in timeNs, with JMH's arithmetic for ops (ss: the batch is
// one op of ops_per_invocation).
func TestingIteration(n int, timeNs float64, metrics map[string]float64, mode protocol.Mode, opi, batch float64) protocol.Iteration {
	it := protocol.Iteration{
		Ops:         float64(n) * opi / batch,
		TimeNs:      timeNs,
		Invocations: uint64(n),
		Metrics:     metrics,
	}
	if !mode.TimedIterations() {
		it.Ops = opi
	}
	return it
}

// testingMetrics are a go test result's secondary metrics: B/op and
// allocs/op, MB/s when bytes (b.SetBytes) is set, and the b.ReportMetric
// units, which win over the built-in ones as in go test.
func testingMetrics(n, seconds float64, bytes int64, memBytes, memAllocs uint64, extra map[string]float64) map[string]float64 {
	m := map[string]float64{
		MetricAllocBytes: float64(memBytes) / n,
		MetricAllocs:     float64(memAllocs) / n,
	}
	if bytes > 0 && seconds > 0 {
		m[MetricMBPerSec] = float64(bytes) * n / 1e6 / seconds
	}
	for unit, v := range extra {
		if unit != "ns/op" { // the primary metric, never a secondary one
			m[unit] = v
		}
	}
	return m
}
