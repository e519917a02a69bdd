package worker

import (
	"math"
	"testing"
	"time"
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

// CalibrateForkWith measures the setting it is given, in both forms.
func TestCalibrateForkWithTakesItsSetting(t *testing.T) {
	s := BaselineSetting{Warmup: 0, Iterations: 2, Time: 20 * time.Microsecond}
	cal := CalibrateForkWith(SystemClock(), s)
	if len(cal.BaselineNs) != 2 || len(cal.BaselineInvocationsNs) != 2 {
		t.Errorf("%v: %d and %d iterations, want 2 of each form", s, len(cal.BaselineNs), len(cal.BaselineInvocationsNs))
	}
	if got, want := s.String(), "2x20µs+0w"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// countingClock counts its reads.
type countingClock struct {
	Clock
	reads int
}

func (c *countingClock) Now() int64 { c.reads++; return c.Clock.Now() }

// A baseline iteration is short: it reads the clock about baselineChunks
// times, not the hundred times of a benchmark's iteration, whose cost
// would make the empty loop look dearer than it is (baselineChunks).
func TestBaselineIterationReadsTheClockAFewTimes(t *testing.T) {
	for _, body := range []func(*B){emptyLoop, emptyInvocations} {
		c := &countingClock{Clock: SystemClock()}
		const n = 5
		if got := baselineRun(c, body, 0, n, 200*time.Microsecond); len(got) != n {
			t.Fatalf("%d iterations, want %d", len(got), n)
		}
		if perIter := c.reads / n; perIter > min(3*baselineChunks, iterationChunks/3) || perIter < 2 {
			t.Errorf("%d clock reads per iteration, want a few more than %d, far fewer than a benchmark iteration's %d", perIter, baselineChunks, iterationChunks)
		}
	}
}
