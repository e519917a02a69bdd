package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestHolm checks Holm's adjusted p-values against values worked out by
// hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 are 0.02, 0.03,
// 0.06, 0.04, made monotone 0.02, 0.03, 0.06, 0.06; NaN is no member.
func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, math.NaN(), 0.03, 0.005})
	want := []float64{0.03, 0.06, math.NaN(), 0.06, 0.02}
	for i := range want {
		if !(math.Abs(got[i]-want[i]) < 1e-12 || math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Errorf("Holm = %v, want %v", got, want)
			break
		}
	}
	if got := Holm([]float64{0.5, 0.9}); got[0] != 1 || got[1] != 1 {
		t.Errorf("Holm caps at 1: %v", got)
	}
}

// TestBeyondP: the p-value of a change beyond ±th is below alpha exactly
// when the (1−alpha) interval lies wholly beyond a bound.
func TestBeyondP(t *testing.T) {
	q := TQuantile(0.975, 9)
	for _, c := range []struct {
		est  float64
		want bool
	}{{0.05 + 1.01*q*0.01, true}, {0.05 + 0.99*q*0.01, false}, {-0.05 - 1.01*q*0.01, true}, {0, false}} {
		if got := BeyondP(c.est, 0.01, 9, 0.05, -0.05) < 0.05; got != c.want {
			t.Errorf("BeyondP(%v) < 0.05 is %v, want %v", c.est, got, c.want)
		}
	}
	if p := BeyondP(0.02, 0.01, 9, 0, 0); math.Abs(p-2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 9}.Survival(2)) > 1e-9 {
		t.Errorf("threshold 0: %v, want the two-sided p of t = 2", p)
	}
}
