package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Welch is Welch's t-test of the difference of two means.
type Welch struct {
	Diff      float64 // mean(b) − mean(a)
	SE        float64 // standard error of Diff
	HalfWidth float64 // of the (1−alpha) confidence interval of Diff
	DF        float64 // Welch–Satterthwaite degrees of freedom
	P         float64 // two-sided p-value of Diff ≠ 0
}

// WelchTest tests whether the means of a and b differ, without assuming
// equal variances. ok is false when a side has fewer than two values.
// When both sides have no spread at all, the difference is exact: P is
// 1 for equal means and 0 otherwise.
func WelchTest(a, b []float64, alpha float64) (w Welch, ok bool) {
	if len(a) < 2 || len(b) < 2 {
		return w, false
	}
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	na, nb := float64(len(a)), float64(len(b))
	sa, sb := va/na, vb/nb // squared standard errors of the means
	w.Diff = mb - ma
	w.SE = math.Sqrt(sa + sb)
	if w.SE == 0 {
		w.DF, w.P = na+nb-2, 1
		if w.Diff != 0 {
			w.P = 0
		}
		return w, true
	}
	w.DF = (sa + sb) * (sa + sb) / (sa*sa/(na-1) + sb*sb/(nb-1))
	w.P = TTwoSided(w.Diff/w.SE, w.DF)
	w.HalfWidth = TQuantile(1-alpha/2, w.DF) * w.SE
	return w, true
}

// WelchForks returns the smallest number of forks a side whose Welch
// interval (at 1−alpha) would have a half-width below margin, if the
// fork means of each side kept the variance of a and b. ok is false
// beyond MaxForks, or when the variances are unknown.
func WelchForks(a, b []float64, margin, alpha float64) (int, bool) {
	if len(a) < 2 || len(b) < 2 || !(margin > 0) {
		return 0, false
	}
	va, vb := stat.Variance(a, nil), stat.Variance(b, nil)
	if va+vb == 0 {
		return 2, true
	}
	fits := func(k int) bool {
		n := float64(k)
		sa, sb := va/n, vb/n
		df := (sa + sb) * (sa + sb) / (sa*sa/(n-1) + sb*sb/(n-1))
		return TQuantile(1-alpha/2, df)*math.Sqrt(sa+sb) < margin
	}
	return searchUp((va+vb)/(margin*margin), alpha, fits)
}

// searchUp returns the smallest n in 2..MaxForks for which
// fits(n) holds, where fits is a t interval's half-width t(n)·√(v/n)
// under a margin and ratio is v/margin²: since the normal quantile z is
// below t's, fewer than z²·ratio samples never fit, and the search
// starts there and gallops up (a few quantiles, where a bisection over
// MaxForks costs fourteen of the slow ones for every pair). ok is false
// when even MaxForks does not fit.
func searchUp(ratio, alpha float64, fits func(n int) bool) (int, bool) {
	z := NormalQuantile(1 - alpha/2)
	low := math.Ceil(z * z * ratio)
	if !(low <= MaxForks) {
		return 0, false
	}
	lo := max(int(low), 2) - 1 // fits(lo) is false, or lo is 1
	hi, step := lo+1, 1
	for !fits(hi) {
		if hi == MaxForks {
			return 0, false
		}
		lo, step = hi, 2*step
		hi = min(lo+step, MaxForks)
	}
	return Bisect(lo, hi, fits), true
}
