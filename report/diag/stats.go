package diag

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/report/stats"
)

// confidence is the level of every interval in evidence, as in the report.
const confidence = 0.999

// interval is a mean with its 99.9 % Student-t half-width (NaN for n ≤ 1).
type interval struct {
	mean, half float64
	n          int
}

func intervalOf(xs []float64) interval {
	if len(xs) == 0 {
		return interval{mean: math.NaN(), half: math.NaN()}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	return interval{mean, stats.HalfWidth(confidence, sd, len(xs)), len(xs)}
}

func (iv interval) lo() float64 { return iv.mean - iv.half }
func (iv interval) hi() float64 { return iv.mean + iv.half }

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// quantile is the p-quantile of sorted values, interpolating linearly
// between order statistics (Hyndman and Fan's type 7, R's default).
func quantile(s []float64, p float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	pos := p * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

func median(xs []float64) float64 { return quantile(sorted(xs), 0.5) }

// robustSD is the normal-consistent median absolute deviation: the
// standard deviation of normal data, unmoved by a few spikes.
func robustSD(xs []float64) float64 {
	m := median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return 1.4826 * median(dev)
}

// tukey returns the values of xs beyond Tukey's fences, k·IQR outside the
// quartiles, and the fences.
func tukey(xs []float64, k float64) (outliers []float64, lo, hi float64) {
	s := sorted(xs)
	q1, q3 := quantile(s, 0.25), quantile(s, 0.75)
	lo, hi = q1-k*(q3-q1), q3+k*(q3-q1)
	for _, x := range s {
		if x < lo || x > hi {
			outliers = append(outliers, x)
		}
	}
	return outliers, lo, hi
}
