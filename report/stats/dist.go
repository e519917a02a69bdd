package stats

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the level of every score error and confidence interval
// of a report and of the evidence of its diagnostics.
const Confidence = 0.999

// tQuantiles caches Student-t quantiles: the inverse incomplete beta
// function behind them costs tens of microseconds, and a report or a
// comparison asks for the same few levels at the same few degrees of
// freedom for every metric and pair, and many more while it searches for
// the samples that would decide one.
var tQuantiles sync.Map // [2]float64{p, df} → float64

// TQuantile is the p quantile of Student's t with df degrees of freedom;
// cached for whole df up to MaxForks only, so that the cache stays
// bounded (Welch's fractional df are computed afresh).
func TQuantile(p, df float64) float64 {
	if df != math.Trunc(df) || df > MaxForks {
		return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
	}
	key := [2]float64{p, df}
	if q, ok := tQuantiles.Load(key); ok {
		return q.(float64)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
	tQuantiles.Store(key, q)
	return q
}

// TSurvival is P(T > x) for Student's t with df degrees of freedom; by
// symmetry P(T < x) is TSurvival(−x, df).
func TSurvival(x, df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(x)
}

// TTwoSided is the two-sided p-value of a t statistic with df degrees
// of freedom.
func TTwoSided(t, df float64) float64 {
	return math.Min(1, 2*TSurvival(math.Abs(t), df))
}

// HalfWidth is the half-width of the two-sided confidence interval of a
// mean of n values of sample standard deviation stdev:
// t(1−(1−confidence)/2, n−1) · stdev/√n. NaN for fewer than 2 values or
// an unknown stdev.
func HalfWidth(confidence, stdev float64, n int) float64 {
	if n < 2 || math.IsNaN(stdev) {
		return math.NaN()
	}
	return TQuantile(1-(1-confidence)/2, float64(n-1)) * stdev / math.Sqrt(float64(n))
}

// NormalQuantile is the p quantile of the standard normal distribution.
func NormalQuantile(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// NormalTwoSided is the two-sided p-value of a standard normal statistic.
func NormalTwoSided(z float64) float64 {
	return 2 * distuv.UnitNormal.Survival(math.Abs(z))
}
