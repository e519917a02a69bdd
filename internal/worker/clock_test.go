package worker

import "testing"

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
