package stats

import (
	"math"
	"testing"
)

func TestHalfWidthStudentT(t *testing.T) {
	// t(0.9995, df) from published t tables; HalfWidth(0.999, 1, n)·√n is t.
	for _, tc := range []struct {
		df   int
		want float64
	}{{1, 636.619}, {2, 31.599}, {4, 8.610}, {9, 4.781}, {14, 4.140}, {29, 3.659}, {120, 3.373}} {
		n := tc.df + 1
		if got := HalfWidth(0.999, 1, n) * math.Sqrt(float64(n)); !near(got, tc.want, 5e-4) {
			t.Errorf("t(0.9995, %d) = %.4f, want %.3f", tc.df, got, tc.want)
		}
	}
	for _, n := range []int{0, 1} {
		if got := HalfWidth(0.999, 1, n); !math.IsNaN(got) {
			t.Errorf("HalfWidth(0.999, 1, %d) = %v, want NaN", n, got)
		}
	}
}
