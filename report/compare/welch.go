package compare

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/report/stats"
)

// welchResult is Welch's t-test of the difference of two means.
type welchResult struct {
	diff      float64 // mean(b) − mean(a)
	halfWidth float64 // of the (1−alpha) confidence interval of diff
	df        float64 // Welch–Satterthwaite degrees of freedom
	p         float64 // two-sided p-value of diff ≠ 0
}

// welch tests whether the means of a and b differ, without assuming equal
// variances. ok is false when a side has fewer than two values. When
// both sides have no spread at all, the difference is exact: p is 1 for
// equal means and 0 otherwise.
func welch(a, b []float64, alpha float64) (w welchResult, ok bool) {
	if len(a) < 2 || len(b) < 2 {
		return w, false
	}
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	na, nb := float64(len(a)), float64(len(b))
	sa, sb := va/na, vb/nb // squared standard errors of the means
	w.diff = mb - ma
	se := math.Sqrt(sa + sb)
	if se == 0 {
		w.df, w.p = na+nb-2, 1
		if w.diff != 0 {
			w.p = 0
		}
		return w, true
	}
	w.df = (sa + sb) * (sa + sb) / (sa*sa/(na-1) + sb*sb/(nb-1))
	w.p = stats.TTwoSided(w.diff/se, w.df)
	w.halfWidth = stats.TQuantile(1-alpha/2, w.df) * se
	return w, true
}

// forksToDecide returns the smallest number of forks a side whose Welch
// interval (at 1−alpha) would have a half-width below margin, if the
// fork means of each side kept the variance of a and b. ok is false
// beyond stats.MaxForks, or when the variances are unknown.
func forksToDecide(a, b []float64, margin, alpha float64) (int, bool) {
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
		return stats.TQuantile(1-alpha/2, df)*math.Sqrt(sa+sb) < margin
	}
	return searchUp((va+vb)/(margin*margin), alpha, fits)
}
