package diag

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/report/stats"
)

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
	return interval{mean, stats.HalfWidth(stats.Confidence, sd, len(xs)), len(xs)}
}

func (iv interval) lo() float64 { return iv.mean - iv.half }
func (iv interval) hi() float64 { return iv.mean + iv.half }

// tukey returns the values of xs beyond Tukey's fences, k·IQR outside the
// quartiles, and the fences.
func tukey(xs []float64, k float64) (outliers []float64, lo, hi float64) {
	s := slices.Sorted(slices.Values(xs))
	q1, q3 := stats.Percentile(s, 25), stats.Percentile(s, 75)
	lo, hi = q1-k*(q3-q1), q3+k*(q3-q1)
	for _, x := range s {
		if x < lo || x > hi {
			outliers = append(outliers, x)
		}
	}
	return outliers, lo, hi
}
