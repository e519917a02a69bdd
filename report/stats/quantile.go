package stats

import (
	"math"
	"slices"
)

// Percentile is JMH's percentile of sorted values, p in [0, 100]: the
// minimum at 0, otherwise Commons Math's legacy estimator, which
// interpolates at position p·(n+1)/100 and clamps to the ends; NaN when
// there are no values. It is the one quantile of the module: the
// report's percentiles, every median and Tukey's quartiles.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return math.NaN()
	case p == 0 || n == 1:
		return sorted[0]
	}
	pos := p * float64(n+1) / 100
	switch {
	case pos < 1:
		return sorted[0]
	case pos >= float64(n):
		return sorted[n-1]
	}
	lower := math.Floor(pos)
	lo, hi := sorted[int(lower)-1], sorted[int(lower)]
	return lo + (pos-lower)*(hi-lo)
}

// Median is the median of x (the mean of the middle two for an even
// count), NaN for none; x is left as it was.
func Median(x []float64) float64 {
	return Percentile(slices.Sorted(slices.Values(x)), 50)
}

// MedianAbsDev is the median absolute deviation of x from its median.
func MedianAbsDev(x []float64) float64 {
	med := Median(x)
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = math.Abs(v - med)
	}
	return Median(dev)
}

// NormalMAD turns a median absolute deviation into a standard deviation
// of normal values, 1/Φ⁻¹(3/4): a spread that a few spikes do not move.
const NormalMAD = 1.4826
