package worker

import (
	"math"
	"testing"
)

// coarseClock costs cost ns per read and ticks in steps of step ns.
type coarseClock struct{ t, cost, step int64 }

func (c *coarseClock) Now() int64 {
	c.t += c.cost
	return c.t / c.step * c.step
}

func TestCalibrateFindsTheStepOfACoarseClock(t *testing.T) {
	for _, tc := range []struct{ cost, step int64 }{
		{20, 1},       // a fine clock: every read steps
		{20, 1000},    // 1 µs: seen within the first reads
		{20, 4000000}, // 4 ms (a jiffies clock): far beyond the reads of a round
	} {
		c := &coarseClock{cost: tc.cost, step: tc.step}
		got := Calibrate(c)
		if want := float64(max(tc.step, tc.cost)); got.ResolutionNs != want {
			t.Errorf("step %d ns, read %d ns: resolution %v ns, want %v", tc.step, tc.cost, got.ResolutionNs, want)
		}
		// Reads that end on a step's boundary cost the step over the
		// reads; the mean is then within one step of the truth.
		if got.OverheadNs <= 0 || got.OverheadNs > float64(tc.cost)+float64(tc.step)/CalibrationReads {
			t.Errorf("step %d ns, read %d ns: overhead %v ns", tc.step, tc.cost, got.OverheadNs)
		}
	}
}

// Every fork measures the empty body in both forms a benchmark can take,
// BaselineIterations iterations each, and its floor is the fastest of
// them all.
func TestCalibrateForkMeasuresBothLoopForms(t *testing.T) {
	cal := CalibrateFork(SystemClock())
	floor := math.Inf(1)
	for name, xs := range map[string][]float64{"for b.Loop()": cal.BaselineNs, "for range b.Invocations()": cal.BaselineInvocationsNs} {
		if len(xs) != BaselineIterations {
			t.Errorf("%s: %d baseline iterations, want %d", name, len(xs), BaselineIterations)
		}
		for _, x := range xs {
			if !(x > 0) {
				t.Errorf("%s: baseline %v ns/op, want a positive cost", name, x)
			}
			floor = min(floor, x)
		}
	}
	// An empty loop is a compare and a branch: well under 100 ns on
	// anything, in its least disturbed iteration.
	if got := cal.BaselineFloorNs(); got != floor || !(got < 100) {
		t.Errorf("floor %v ns/op, want the fastest iteration, %v, and under 100", got, floor)
	}
}
