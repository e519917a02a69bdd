package stats

import (
	"math"
	"testing"
)

// TestRankTest checks the rank test and its bounds against values
// worked out by hand: the exact two-sided p of fully separated samples
// is 2/C(n1+n2, n1); all values equal is p 1; the fewest forks a side
// with which it can reach alpha.
func TestRankTest(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		U, P float64
	}{
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 0, 0.1},
		{[]float64{4, 5, 6}, []float64{1, 2, 3}, 9, 0.1},
		{[]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 0, 2 / 70.0},
		{[]float64{1, 3, 5}, []float64{2, 4, 6}, 3, 0.7}, // U 3 of 9: P(U ≤ 3) = 7/20
		{[]float64{2, 2}, []float64{2, 2, 2}, 3, 1},
	} {
		r, ok := RankTest(c.a, c.b)
		if !ok || r.U != c.U || math.Abs(r.P-c.P) > 1e-9 {
			t.Errorf("RankTest(%v, %v) = %+v, %v; want U %v, P %v", c.a, c.b, r, ok, c.U, c.P)
		}
	}
	if got := RankMinP(3, 3); math.Abs(got-0.1) > 1e-12 {
		t.Errorf("RankMinP(3, 3) = %v, want 0.1", got)
	}
	for alpha, want := range map[float64]int{0.05: 4, 0.01: 5, 0.2: 3} {
		if got := RankMinForks(alpha); got != want {
			t.Errorf("RankMinForks(%g) = %d, want %d", alpha, got, want)
		}
	}
	if _, ok := RankForks(4.5, 3, 3, 0.05); ok {
		t.Errorf("RankForks with an even order: ok, want no number of forks")
	}
}
