package report

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// precisionRun is an avgt run in ns of 3 measurement iterations of
// 100 ms with a precision target of error.
func precisionRun(error float64) *plan.Run {
	s := spec.DefaultSettings()
	s.TimeUnit, s.Forks = "ns", 3
	s.Measurement = spec.Iterations{Iterations: 3, Time: 100 * time.Millisecond, BatchSize: 1}
	s.Precision = spec.Precision{Error: error}
	return &plan.Run{Key: "a:avgt", Benchmark: "a", Mode: spec.ModeAverageTime, Settings: s}
}

// forksOf makes measured forks of 1 s wall each whose measurement
// iterations of 100 ms score the given ns/op.
func forksOf(scores ...[]float64) []protocol.ForkResult {
	var out []protocol.ForkResult
	for i, fork := range scores {
		f := protocol.ForkResult{Fork: i + 1, Wall: time.Second}
		for j, v := range fork {
			f.Iterations = append(f.Iterations, protocol.Iteration{Phase: protocol.PhaseMeasurement, Index: j + 1,
				TimeNs: 1e8, Ops: 1e8 / v, Invocations: uint64(1e8 / v)})
		}
		out = append(out, f)
	}
	return out
}

// NextFork adds iterations where the within-fork variance makes longer
// forks pay more (Kalibera and Jones's n* above the iterations run),
// doubling at most per fork and never past the bound, and keeps the
// run's own iterations where the forks differ and the iterations agree.
func TestNextForkAllocates(t *testing.T) {
	r := precisionRun(0.001)
	// Forks agree, iterations scatter ±10 %: σ²b 0, n* unbounded.
	within := forksOf([]float64{90, 100, 110}, []float64{110.5, 90.5, 100.5}, []float64{99.5, 109.5, 89.5})
	g := NextFork(r, within)
	if !g.More || g.Iterations != 6 || g.Estimate != 700*time.Millisecond+6*100*time.Millisecond {
		t.Errorf("within-fork noise: %+v; want one more fork of 6 iterations (twice 3), expected 0.7 s + 6 × 0.1 s", g)
	}
	longer := append(within, forksOf([]float64{95, 105, 100, 100, 105, 95.5})...)
	if g := NextFork(r, longer); !g.More || g.Iterations != 12 {
		t.Errorf("after a fork of 6: %+v; want 12 iterations next", g)
	}
	r.Settings.Precision.MaxIterations = 8
	if g := NextFork(r, longer); g.Iterations != 8 {
		t.Errorf("max_iterations 8: %+v; want 8 iterations next", g)
	}
	// Forks differ by 10 %, iterations agree to 0.1 %: n* ≈ 0.
	between := forksOf([]float64{100, 100.1, 99.9}, []float64{110, 110.1, 109.9}, []float64{90, 90.1, 89.9})
	if g := NextFork(r, between); !g.More || g.Iterations != 3 {
		t.Errorf("between-fork noise: %+v; want one more fork of the run's 3 iterations", g)
	}
	// Precise: no more forks.
	if g := NextFork(precisionRun(2), between); g.More {
		t.Errorf("within ±200 %%: %+v, want no more forks", g)
	}
}

// The precision record says what the forks cost and how they were
// allocated: iterations per fork, fork and iteration costs, n*.
func TestPrecisionRecordsTheAllocation(t *testing.T) {
	r := precisionRun(0.001)
	r.Settings.Precision.MaxForks = 3
	forks := forksOf([]float64{100, 100.1, 99.9}, []float64{110, 110.1, 109.9}, []float64{90, 90.1, 89.9, 90, 90.1, 89.9})
	p := precisionOf(r, forks)
	if diff := cmp.Diff([]int{3, 3, 6}, p.ForkIterations); diff != "" {
		t.Errorf("iterations per fork (-want +got):\n%s", diff)
	}
	if math.Abs(float64(p.ForkCostNs)-6e8) > 1 || math.Abs(float64(p.IterationCostNs)-1e8) > 1 {
		t.Errorf("fork cost %v ns, iteration cost %v ns; want the wall outside measurement (1 s less 3, 3 and 6 × 0.1 s: 0.6 s on average) and 0.1 s", p.ForkCostNs, p.IterationCostNs)
	}
	if !(p.OptimalIterations > 0 && p.OptimalIterations < 1) || p.Reason != StopMaxForks || p.Forks != 3 || p.WallNs != 3e9 {
		t.Errorf("record %+v; want n* under 1 (forks differ, iterations agree), stopped at max_forks, 3 forks, 3 s", *p)
	}
}
