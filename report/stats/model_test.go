package stats

import (
	"math"
	"testing"
)

func near(got, want, rel float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if got == want {
		return true
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-12)
}

func TestOf(t *testing.T) {
	nan := math.NaN()
	type want struct {
		forks, values                           int
		mean, meansStdev, within, between, f, p float64
	}
	for _, tc := range []struct {
		name  string
		forks [][]float64
		want  want
	}{
		// Means 11, 13. SSW 4 over 4 df: σ²w 1. MSB 6, n0 3: σ²b 5/3.
		// F = 6, F(1, 4) survival at 6 = 0.0705.
		{"two forks", [][]float64{{10, 11, 12}, {12, 13, 14}}, want{2, 6, 12, math.Sqrt2, 1, 5.0 / 3, 6, 0.070484}},
		// Unbalanced: means 1.5, 4. SSW 0.5+2 over 3 df; F(1, 3) at 9 is
		// t(3) at 3 two-sided: 0.0577.
		// N 5, Σn² 13: n0 = (5 − 13/5)/1 = 2.4. grand 3: SSB 2·2.25+3·1 = 7.5.
		// σ²b = (7.5 − 2.5/3)/2.4.
		{"unbalanced", [][]float64{{1, 2}, {}, {3, 4, 5}}, want{2, 5, 3, 2.5 / math.Sqrt2, 2.5 / 3, (7.5 - 2.5/3) / 2.4, 7.5 / (2.5 / 3), 0.057669}},
		// Fork means agree better than iterations: σ²b clamps at 0.
		{"no between", [][]float64{{1, 3}, {3, 1}}, want{2, 4, 2, 0, 2, 0, 0, 1}},
		{"no within", [][]float64{{1, 1}, {2, 2}}, want{2, 4, 1.5, math.Sqrt(0.5), 0, 0.5, math.Inf(1), 0}},
		{"one value per fork", [][]float64{{1}, {3}}, want{2, 2, 2, math.Sqrt2, nan, nan, nan, nan}},
		{"one fork", [][]float64{{1, 2, 3}}, want{1, 3, 2, nan, 1, nan, nan, nan}},
		{"nothing", nil, want{0, 0, nan, nan, nan, nan, nan, nan}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Of(tc.forks)
			got := want{m.Forks, m.Values, m.Mean, m.MeansStdev, m.Within, m.Between, m.F, m.P}
			w := tc.want
			if got.forks != w.forks || got.values != w.values || !near(got.mean, w.mean, 1e-12) || !near(got.meansStdev, w.meansStdev, 1e-12) ||
				!near(got.within, w.within, 1e-12) || !near(got.between, w.between, 1e-12) || !near(got.f, w.f, 1e-12) || !near(got.p, w.p, 1e-4) {
				t.Errorf("Of(%v) = %+v, want %+v", tc.forks, got, w)
			}
		})
	}
}

func TestBetweenShare(t *testing.T) {
	if got := Of([][]float64{{10, 11, 12}, {12, 13, 14}}).BetweenShare(); !near(got, 0.625, 1e-12) {
		t.Errorf("share = %v, want (5/3)/(8/3)", got)
	}
	if got := Of([][]float64{{1, 1}, {1, 1}}).BetweenShare(); got != 0 {
		t.Errorf("share of constant values = %v, want 0", got)
	}
}

func TestHalfWidth(t *testing.T) {
	// Fork means 2, 3, 4: s = 1; t(0.9995, 2) = 31.5991 (tables); t(0.975, 2) = 4.3027.
	m := Of([][]float64{{1, 2, 3}, {2, 3, 4}, {3, 4, 5}})
	if got := m.HalfWidth(0.999); !near(got, 31.5991/math.Sqrt(3), 1e-5) {
		t.Errorf("99.9 %% half-width = %v, want %v", got, 31.5991/math.Sqrt(3))
	}
	if got := m.HalfWidth(0.95); !near(got, 4.30265/math.Sqrt(3), 1e-5) {
		t.Errorf("95 %% half-width = %v, want %v", got, 4.30265/math.Sqrt(3))
	}
	if got := Of([][]float64{{1, 2, 3, 4, 5, 6}}).HalfWidth(0.999); !math.IsNaN(got) {
		t.Errorf("one fork's half-width = %v, want NaN: iterations cannot stand in for forks", got)
	}
}

func TestForksFor(t *testing.T) {
	// s = 1: the smallest n with t(0.975, n−1)/√n ≤ 0.5 is 18 (t(0.975,17)/√18 = 0.4973; t(0.975,16)/√17 = 0.5141).
	m := Of([][]float64{{1, 2, 3}, {2, 3, 4}, {3, 4, 5}})
	if n, ok := m.ForksFor(0.5, 0.95); !ok || n != 18 {
		t.Errorf("ForksFor(0.5, 95 %%) = %d, %v; want 18", n, ok)
	}
	if got := m.HalfWidth(0.95); got <= 0.5 {
		t.Fatalf("3 forks already reach ±0.5 (%v): the case tests nothing", got)
	}
	if _, ok := m.ForksFor(1e-6, 0.95); ok {
		t.Errorf("ForksFor beyond MaxForks: ok, want not ok")
	}
	if _, ok := Of([][]float64{{1, 2}}).ForksFor(1, 0.95); ok {
		t.Errorf("ForksFor from one fork: ok, want not ok (no spread of fork means)")
	}
	if n, ok := Of([][]float64{{1, 1}, {1, 1}}).ForksFor(0.01, 0.999); !ok || n != 2 {
		t.Errorf("ForksFor with equal fork means = %d, %v; want 2", n, ok)
	}
}

func TestOptimalIterations(t *testing.T) {
	// σ²w 1, σ²b 5/3; a fork costs 100 iterations: √(100·1/(5/3)) = 7.746.
	m := Of([][]float64{{10, 11, 12}, {12, 13, 14}})
	if n, ok := m.OptimalIterations(100, 1); !ok || !near(n, math.Sqrt(60), 1e-12) {
		t.Errorf("OptimalIterations = %v, %v; want √60", n, ok)
	}
	if _, ok := Of([][]float64{{1, 3}, {3, 1}}).OptimalIterations(100, 1); ok {
		t.Errorf("no between-fork variance: ok, want not ok")
	}
}
