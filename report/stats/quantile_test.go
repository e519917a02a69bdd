package stats

import (
	"math"
	"testing"
)

func TestJMHPercentile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		values []float64
		p      float64
		want   float64
	}{
		{ten, 0, 1},
		{ten, 50, 5.5},  // position 5.5
		{ten, 90, 9.9},  // position 9.9
		{ten, 95, 10},   // position 10.45, clamped
		{ten, 5, 1},     // position 0.55, clamped
		{ten, 25, 2.75}, // position 2.75
		{ten, 100, 10},  //
		{[]float64{7}, 50, 7},
		{nil, 50, math.NaN()},
	} {
		if got := Percentile(tc.values, tc.p); !near(got, tc.want, 1e-12) {
			t.Errorf("Percentile(%v, %v) = %v, want %v", tc.values, tc.p, got, tc.want)
		}
	}
}

// TestMedian: the median is the 50th percentile, the mean of the middle
// two for an even count, and leaves its input as it was.
func TestMedian(t *testing.T) {
	x := []float64{4, 1, 3, 2}
	if got := Median(x); got != 2.5 || x[0] != 4 {
		t.Errorf("Median = %v (input now %v), want 2.5", got, x)
	}
	if got := Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("Median = %v, want 2", got)
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(nil) = %v, want NaN", got)
	}
	// Deviations from 3: 2, 1, 0, 1, 97.
	if got := MedianAbsDev([]float64{1, 2, 3, 4, 100}); got != 1 {
		t.Errorf("MedianAbsDev = %v, want 1", got)
	}
}
