package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestWelch(t *testing.T) {
	// Expected values computed independently: the moments by hand, the
	// t distribution's tail by Simpson integration of its density.
	a := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	b := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	w, ok := WelchTest(a, b, 0.05)
	want := Welch{Diff: 2.1666667, HalfWidth: 1.8174296, DF: 24.988529, P: 0.0213780}
	if !ok || math.Abs(w.DF-want.DF) > 1e-5 || math.Abs(w.P-want.P) > 1e-6 || math.Abs(w.Diff-want.Diff) > 1e-6 ||
		math.Abs(w.HalfWidth-want.HalfWidth) > 1e-6 {
		t.Errorf("WelchTest = %+v, %v; want %+v", w, ok, want)
	}
	if _, ok := WelchTest([]float64{1}, b, 0.05); ok {
		t.Errorf("WelchTest with one value succeeds")
	}
	if w, _ := WelchTest([]float64{2, 2}, []float64{2, 2, 2}, 0.05); w.P != 1 {
		t.Errorf("identical constants: p = %v, want 1", w.P)
	}
	if w, _ := WelchTest([]float64{2, 2}, []float64{3, 3}, 0.05); w.P != 0 {
		t.Errorf("different constants: p = %v, want 0", w.P)
	}
}

// The forks an inconclusive pair asks for do decide it when the spread
// stays: a half-width under the margin with that many, not with one less.
func TestForksToDecide(t *testing.T) {
	a, b := []float64{10, 11, 12}, []float64{12, 13, 14}
	k, ok := WelchForks(a, b, 0.5, 0.05)
	if !ok || k <= 3 {
		t.Fatalf("WelchForks = %d, %v; want more than 3", k, ok)
	}
	half := func(n int) float64 {
		// Welch with equal n: variances a 1, b 1 → se √(2/n), df 2(n−1)
		return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 2 * float64(n-1)}.Quantile(0.975) * math.Sqrt(2/float64(n))
	}
	if half(k) >= 0.5 || half(k-1) < 0.5 {
		t.Errorf("WelchForks = %d: half-widths %v at k, %v at k−1; want the first under 0.5", k, half(k), half(k-1))
	}
}
