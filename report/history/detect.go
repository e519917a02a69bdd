package history

import (
	"math"

	"github.com/benchspec/benchspec/report/stats"
)

// The change point detection: E-Divisive means (Matteson and James,
// 2014) proposes where a series splits, a Student t-test decides whether
// the split is real, in the two passes of Hunter (Fleming et al., ICPE
// 2023; Apache Otava). The package comment says why this method and how
// each point's own spread enters the test.

// change is a change point: where, and the test of it.
type change struct {
	index int // the first point after the change
	test  tTest
}

// tTest is the two-sample t-test of the points before a change against
// the points after it, each side bounded by the neighbouring changes.
type tTest struct {
	n1, n2       int
	mean1, mean2 float64
	se           float64 // standard error of mean2 − mean1
	df           float64
	p            float64 // two-sided
}

// rel is the relative change of the means, (mean2 − mean1) / mean1.
func (t tTest) rel() float64 {
	if t.mean1 == 0 {
		return math.NaN()
	}
	return (t.mean2 - t.mean1) / t.mean1
}

// magnitude is |rel|, +Inf when the level before is 0 and the means
// differ, so that a change from nothing is never too small to count.
func (t tTest) magnitude() float64 {
	switch {
	case t.mean1 != 0:
		return math.Abs(t.rel())
	case t.mean2 != t.mean1:
		return math.Inf(1)
	}
	return 0
}

// interval is the (1 − alpha) confidence interval of rel.
func (t tTest) interval(alpha float64) (lo, hi float64) {
	if t.mean1 == 0 || t.df < 1 {
		return math.NaN(), math.NaN()
	}
	q := stats.TQuantile(1-alpha/2, t.df)
	d := t.mean2 - t.mean1
	lo, hi = (d-q*t.se)/math.Abs(t.mean1), (d+q*t.se)/math.Abs(t.mean1)
	return lo, hi
}

// detector finds the change points of one series: x are the points'
// scores, own the variance of each score as its own measurement tells
// (Point.OwnVariance: fork means' variance over forks; 0 when unknown).
type detector struct {
	x, own []float64
	opts   Options
}

// detect returns the change points of the series, in index order.
func (d *detector) detect() []change {
	n := len(d.x)
	if n < 2 {
		return nil
	}
	weak := d.split(d.firstPassP())
	return d.merge(weak)
}

// firstPassP is the relaxed significance of the split pass: it proposes
// more changes than will stand, so that the merge pass, which tests each
// against its final neighbours, can keep the ones a window's view hid.
// Hunter relaxes it tenfold.
func (d *detector) firstPassP() float64 {
	p := d.opts.P
	switch {
	case p < 0.05:
		return 10 * p
	case p < 0.5:
		return 2 * p
	}
	return p
}

// split runs E-Divisive in overlapping windows of opts.Window points
// (each starts half a window on, or at the last change found): in each,
// the strongest split of any stretch between changes already found is
// tested, and kept while significant at p. Windows keep a long history
// from hiding a small recent change behind a large old one, and bound
// the cost to the window's square.
func (d *detector) split(p float64) []int {
	n, w := len(d.x), d.opts.Window
	step := max(w/2, 1)
	found := map[int]bool{}
	for start := 0; start < n; {
		end := min(start+w, n)
		cps := d.eDivisive(start, end, p)
		last := 0
		for _, c := range cps {
			found[c] = true
			last = max(last, c)
		}
		if end == n {
			break
		}
		start = max(last, start+step)
	}
	out := make([]int, 0, len(found))
	for i := 1; i < n; i++ {
		if found[i] {
			out = append(out, i)
		}
	}
	return out
}

// eDivisive finds the change points of x[start:end]: repeatedly, the
// split with the largest divergence Q̂ over the stretches between the
// changes found so far, while its t-test is significant at p.
func (d *detector) eDivisive(start, end int, p float64) []int {
	bounds := []int{start, end} // sorted: the stretches are [bounds[i], bounds[i+1])
	var cps []int
	for {
		best, bestQ, at := -1, math.Inf(-1), -1
		for i := 0; i+1 < len(bounds); i++ {
			if tau, q, ok := bestSplit(d.x[bounds[i]:bounds[i+1]]); ok && q > bestQ {
				best, bestQ, at = bounds[i]+tau, q, i
			}
		}
		if best < 0 {
			return cps
		}
		t := d.test(bounds[at], best, bounds[at+1])
		if t.p > p {
			return cps
		}
		cps = append(cps, best)
		bounds = append(bounds[:at+1], append([]int{best}, bounds[at+1:]...)...)
	}
}

// bestSplit returns the split τ of z (z[:τ] before, z[τ:] after) that
// maximizes E-Divisive's Q̂(X, Y) over X = z[:τ] and Y = z[τ:κ] for every
// κ > τ, with its Q̂: the energy distance between the two samples,
// scaled by their sizes,
//
//	Q̂ = mn/(m+n) · ( 2/(mn) Σ|Xᵢ−Yⱼ| − 1/C(m,2) Σ|Xᵢ−Xₖ| − 1/C(n,2) Σ|Yⱼ−Yₖ| )
//
// (a within-sample term is 0 for a sample of one). Sums of |zᵢ−zⱼ| over
// blocks come from a 2-D prefix sum, so one stretch costs O(len²). Ties
// go to the earliest τ: the result does not depend on anything but z.
func bestSplit(z []float64) (tau int, q float64, ok bool) {
	n := len(z)
	if n < 2 {
		return 0, 0, false
	}
	// s[i*(n+1)+j] = Σ_{a<i, b<j} |z_a − z_b|
	s := make([]float64, (n+1)*(n+1))
	for i := 1; i <= n; i++ {
		row := 0.0
		for j := 1; j <= n; j++ {
			row += math.Abs(z[i-1] - z[j-1])
			s[i*(n+1)+j] = s[(i-1)*(n+1)+j] + row
		}
	}
	block := func(r0, r1, c0, c1 int) float64 {
		return s[r1*(n+1)+c1] - s[r0*(n+1)+c1] - s[r1*(n+1)+c0] + s[r0*(n+1)+c0]
	}
	q = math.Inf(-1)
	for t := 1; t < n; t++ {
		m := float64(t)
		within1 := 0.0
		if t > 1 {
			within1 = block(0, t, 0, t) / 2 / (m * (m - 1) / 2)
		}
		for k := t + 1; k <= n; k++ {
			nn := float64(k - t)
			within2 := 0.0
			if k-t > 1 {
				within2 = block(t, k, t, k) / 2 / (nn * (nn - 1) / 2)
			}
			e := 2*block(0, t, t, k)/(m*nn) - within1 - within2
			if v := m * nn / (m + nn) * e; v > q {
				q, tau = v, t
			}
		}
	}
	return tau, q, true
}

// test is the t-test of x[lo:at] against x[at:hi]: Student's two-sample
// test with pooled variance, as Hunter's, except that the pooled variance
// is never less than the median of the points' own variance (own): the
// typical night's, which one night that a busy machine made noisy does
// not raise for all the others. The
// spread between points is what a night-to-night change must beat; a
// point's own spread is a floor under it, so that a few points that
// agree by chance, or a series whose scores repeat exactly, do not make
// a change look more certain than each measurement could tell.
func (d *detector) test(lo, at, hi int) tTest {
	left, right := d.x[lo:at], d.x[at:hi]
	t := tTest{n1: len(left), n2: len(right), mean1: mean(left), mean2: mean(right), p: 1}
	if t.n1 == 0 || t.n2 == 0 {
		return t
	}
	t.df = float64(t.n1 + t.n2 - 2)
	if t.df < 1 {
		return t
	}
	pooled := (sumSquares(left, t.mean1) + sumSquares(right, t.mean2)) / t.df
	floor := stats.Median(d.own[lo:hi])
	v := math.Max(pooled, floor)
	// Each side's mean is no surer than its own points say: a newest
	// night alone, whose forks a busy machine scattered, carries its own
	// spread into the test, not the typical night's.
	own := mean(d.own[lo:at])/float64(t.n1) + mean(d.own[at:hi])/float64(t.n2)
	t.se = math.Sqrt(math.Max(v*(1/float64(t.n1)+1/float64(t.n2)), own))
	diff := t.mean2 - t.mean1
	switch {
	case t.se > 0:
		t.p = stats.TTwoSided(diff/t.se, t.df)
	case diff != 0:
		t.p = 0 // no spread anywhere: the levels differ exactly
	}
	return t
}

// merge is Hunter's second pass: each weak change is tested against its
// neighbouring changes; the weakest — the least significant, or when all
// are significant the smallest — is dropped while it fails p or
// MinChange, and its neighbours are tested again without it.
//
// Before those, a change that leaves fewer than minLevel points between
// itself and its neighbour (or the start) is dropped, the least
// significant first: a point or two apart from their neighbours are
// outliers, not a level, and in a long series a test made at every
// point finds such outliers by chance; three in a row that agree are
// rare. Only the stretch after the newest change may be shorter: a
// regression on the latest night is what a nightly job wants to hear of
// at once.
func (d *detector) merge(weak []int) []change {
	cps := make([]change, len(weak))
	for i, at := range weak {
		cps[i].index = at
	}
	d.retest(cps)
	for len(cps) > 0 {
		weakest := -1
		for i, c := range cps {
			if d.isolates(cps, i) && (weakest < 0 || c.test.p > cps[weakest].test.p) {
				weakest = i
			}
		}
		if weakest >= 0 {
			cps = append(cps[:weakest], cps[weakest+1:]...)
			d.retest(cps)
			continue
		}
		weakest = 0
		for i, c := range cps {
			if c.test.p > cps[weakest].test.p {
				weakest = i
			}
		}
		if cps[weakest].test.p <= d.opts.P {
			for i, c := range cps {
				if c.test.magnitude() < cps[weakest].test.magnitude() {
					weakest = i
				}
			}
			if cps[weakest].test.magnitude() >= d.opts.MinChange {
				return cps
			}
		}
		cps = append(cps[:weakest], cps[weakest+1:]...)
		d.retest(cps)
	}
	return cps
}

// minLevel is the fewest points of a level other than the newest.
const minLevel = 3

// isolates reports whether change i leaves fewer than minLevel points
// on a side, other than after the newest change.
func (d *detector) isolates(cps []change, i int) bool {
	prev := 0
	if i > 0 {
		prev = cps[i-1].index
	}
	return cps[i].index-prev < minLevel || i+1 < len(cps) && cps[i+1].index-cps[i].index < minLevel
}

// retest tests every change against its neighbours.
func (d *detector) retest(cps []change) {
	for i := range cps {
		lo, hi := 0, len(d.x)
		if i > 0 {
			lo = cps[i-1].index
		}
		if i+1 < len(cps) {
			hi = cps[i+1].index
		}
		cps[i].test = d.test(lo, cps[i].index, hi)
	}
}

// detectable is the smallest relative change of the level that the
// test could tell apart, at its significance P, between the two halves
// of the series taken as one level: the interval's half-width of a
// change between them, t(1 − P/2, n − 2)·√(v·(1/n₁ + 1/n₂)), v the
// series' variance around its mean or the points' own (the test's
// floor), whichever is larger, over the mean level. NaN with fewer
// than three points or a level of 0.
func (d *detector) detectable() float64 {
	n := len(d.x)
	if n < 3 {
		return math.NaN()
	}
	m := mean(d.x)
	if m == 0 {
		return math.NaN()
	}
	v := math.Max(sumSquares(d.x, m)/float64(n-1), stats.Median(d.own))
	n1 := n / 2
	n2 := n - n1
	q := stats.TQuantile(1-d.opts.P/2, float64(n-2))
	return q * math.Sqrt(v*(1/float64(n1)+1/float64(n2))) / math.Abs(m)
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func sumSquares(x []float64, m float64) float64 {
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s
}
