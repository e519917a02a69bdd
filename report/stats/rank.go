package stats

import (
	"errors"
	"math"

	moremath "github.com/aclements/go-moremath/stats"
)

// Rank is the two-sided Mann–Whitney U test of two samples.
type Rank struct {
	U float64 // U of the first sample: the (a, b) pairs with a > b, ties counted half
	P float64 // two-sided p-value
}

// RankTest is the Mann–Whitney U test of whether a and b differ in
// location, two-sided, exact for small samples (go-moremath's
// MannWhitneyUTest, the test benchstat uses). It assumes nothing of
// the values' distribution: its false-alarm rate is at most alpha
// whatever shape the fork means have, bimodal included. All values
// equal is no evidence of a difference: P 1. ok is false when a side
// is empty.
func RankTest(a, b []float64) (r Rank, ok bool) {
	res, err := moremath.MannWhitneyUTest(a, b, moremath.LocationDiffers)
	switch {
	case errors.Is(err, moremath.ErrSamplesEqual):
		return Rank{U: float64(len(a)*len(b)) / 2, P: 1}, true
	case err != nil:
		return r, false
	}
	return Rank{U: res.U, P: math.Min(1, res.P)}, true
}

// RankMinP is the smallest two-sided p-value the rank test can give
// with n1 and n2 values and no ties: every value of one side below
// every value of the other, 2 / C(n1+n2, n1). With 3 a side it is
// 2/20 = 0.1, so no 3 v 3 comparison is significant at 0.05.
func RankMinP(n1, n2 int) float64 {
	c := 1.0 // C(n1+n2, n1) = ∏ (n2+i)/i
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// RankMinForks returns the fewest forks a side, k, with which the rank
// test can be significant at all at level alpha: 2/C(2k, k) < alpha
// (4 at 0.05, 5 at 0.01).
func RankMinForks(alpha float64) int {
	k, ok := SmallestForks(func(k int) bool { return RankMinP(k, k) < alpha })
	if !ok {
		return MaxForks + 1
	}
	return k
}

// RankForks returns the smallest number of forks a side with which
// the rank test would be significant at alpha if the two sides' fork
// means kept the order measured: the share of (a, b) pairs in which a
// is the larger, u/(n1·n2), stays, and U is read against its normal
// approximation (with the continuity correction the library uses),
// never below RankMinForks. ok is false when the order is even (a
// share of ½: no number of forks would show a difference) or beyond
// MaxForks.
func RankForks(u float64, n1, n2 int, alpha float64) (int, bool) {
	d := math.Abs(u/float64(n1*n2) - 0.5)
	if !(d > 0) {
		return 0, false
	}
	z := NormalQuantile(1 - alpha/2)
	return SmallestForks(func(k int) bool {
		n := float64(k)
		return RankMinP(k, k) < alpha && d*n*n-0.5 > z*math.Sqrt(n*n*(2*n+1)/12)
	})
}
