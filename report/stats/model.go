// Package stats is the statistical model every number of a report is
// judged by: forks are the experimental unit (Kalibera and Jones,
// "Rigorous Benchmarking in Reasonable Time", ISMM 2013). A process keeps
// its memory layout, code placement and core for all its iterations, so
// a run's values are iterations nested in forks, with two variance
// components: σ²w within a fork and σ²b between forks. A fork mean of n
// iterations varies by σ²b + σ²w/n: more iterations shrink only the
// second term, more forks both.
//
// Intervals are Student-t over the fork means (forks−1 degrees of
// freedom): exact for the balanced design a plan runs, and deterministic,
// where a hierarchical bootstrap of 2–10 fork means is unstable at 99.9 %
// and random. The components (one-way random-effects ANOVA, σ²b clamped
// at 0) are reported and size a plan (Forks, OptimalIterations), but the
// interval does not depend on them.
//
// The package is also the one home of the statistics built on that
// unit, which report, compare, history and diag share: Student-t and
// normal quantiles and tails (dist.go), JMH's percentile and the median
// and MAD read from it (quantile.go), Welch's and the Mann–Whitney test
// (welch.go, rank.go), Holm's correction (family.go), and the confidence
// sequence of a Huber location that ab stops by (sequence.go).
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MaxForks bounds the answer of Model.ForksFor: beyond it the question
// is not how many forks, but whether the benchmark measures anything
// stable.
const MaxForks = 10000

// Model is the two-level model of a set of values grouped by fork.
// Numbers that cannot be estimated from the data are NaN.
type Model struct {
	// Forks is the number of forks with at least one value: the number
	// of experimental units.
	Forks int
	// Values is the number of values in all forks.
	Values int
	// Means are the fork means, of the forks with values, in order.
	Means []float64
	// Mean is the mean of all values; for a balanced design it is the
	// mean of the fork means.
	Mean float64
	// MeansStdev is the sample standard deviation of the fork means
	// (forks−1); NaN for fewer than 2 forks.
	MeansStdev float64
	// Within is σ²w, the within-fork variance component (the mean square
	// within forks); NaN when no fork has two values.
	Within float64
	// Between is σ²b, the between-fork variance component, clamped at 0;
	// NaN when it cannot be told from the within-fork one (fewer than 2
	// forks, or no within-fork variance).
	Between float64
	// F and P are the one-way ANOVA's F statistic and p-value for "the
	// forks have the same mean"; NaN when there is no test.
	F, P float64
}

// Of computes the model of values grouped by fork. Empty groups are
// skipped; the caller keeps out values that are not finite.
func Of(forks [][]float64) Model {
	m := Model{Mean: math.NaN(), MeansStdev: math.NaN(), Within: math.NaN(), Between: math.NaN(), F: math.NaN(), P: math.NaN()}
	var all []float64
	var sumSq float64
	for _, g := range forks {
		if len(g) == 0 {
			continue
		}
		m.Means = append(m.Means, stat.Mean(g, nil))
		all = append(all, g...)
		sumSq += float64(len(g) * len(g))
	}
	m.Forks, m.Values = len(m.Means), len(all)
	if m.Values == 0 {
		return m
	}
	m.Mean = stat.Mean(all, nil)
	if m.Forks >= 2 {
		m.MeansStdev = stat.StdDev(m.Means, nil)
	}
	var ssb, ssw float64
	i := 0
	for _, g := range forks {
		if len(g) == 0 {
			continue
		}
		mean := m.Means[i]
		i++
		ssb += float64(len(g)) * (mean - m.Mean) * (mean - m.Mean)
		for _, x := range g {
			ssw += (x - mean) * (x - mean)
		}
	}
	dfb, dfw := float64(m.Forks-1), float64(m.Values-m.Forks)
	if dfw < 1 {
		return m
	}
	msw := ssw / dfw
	m.Within = msw
	if dfb < 1 {
		return m
	}
	msb := ssb / dfb
	n0 := (float64(m.Values) - sumSq/float64(m.Values)) / dfb
	m.Between = math.Max(msb-msw, 0) / n0
	switch {
	case msw > 0:
		m.F = msb / msw
		m.P = distuv.F{D1: dfb, D2: dfw}.Survival(m.F)
	case msb > 0: // no spread within forks, some between them
		m.F, m.P = math.Inf(1), 0
	default: // every value equal
		m.Between = 0
		m.F, m.P = math.NaN(), 1
	}
	return m
}

// BetweenShare is σ²b / (σ²b + σ²w): the share of the variance of one
// value that comes from the fork it ran in. NaN when a component is.
func (m Model) BetweenShare() float64 {
	total := m.Between + m.Within
	if total == 0 {
		return 0
	}
	return m.Between / total
}

// HalfWidth is the half-width of the confidence interval of the mean
// with forks as the unit: t(1−(1−confidence)/2, forks−1) · s/√forks, s
// the standard deviation of the fork means. NaN for fewer than 2 forks.
func (m Model) HalfWidth(confidence float64) float64 {
	return HalfWidth(confidence, m.MeansStdev, m.Forks)
}

// ForksFor returns the smallest number of forks, each running as many
// iterations as these did, whose confidence interval's half-width would
// be at most half, estimating the fork means' spread by this run's.
// ok is false when the spread is unknown (fewer than 2 forks) or more
// than MaxForks would be needed. A spread of 0 needs 2 forks: the least
// that can show one.
func (m Model) ForksFor(half, confidence float64) (forks int, ok bool) {
	s := m.MeansStdev
	if math.IsNaN(s) || math.IsNaN(half) || half < 0 {
		return 0, false
	}
	if s == 0 {
		return 2, true
	}
	return SmallestForks(func(n int) bool { return HalfWidth(confidence, s, n) <= half })
}

// SmallestForks returns the smallest number of forks n in 2..MaxForks
// for which fits(n) holds, by bisection: fits must hold for every n
// above one where it holds (an interval narrows as forks are added).
// ok is false when even MaxForks does not fit.
func SmallestForks(fits func(n int) bool) (n int, ok bool) {
	if !fits(MaxForks) {
		return 0, false
	}
	return Bisect(1, MaxForks, fits), true // one fork has no interval
}

// Bisect returns the smallest n in lo+1..hi for which fits(n) holds,
// given fits(hi), not fits(lo), and fits holding above any n where it
// holds.
func Bisect(lo, hi int, fits func(n int) bool) int {
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fits(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// OptimalIterations is Kalibera and Jones's cost-optimal number of
// measurement iterations per fork, √(c_fork·σ²w / (c_iter·σ²b)): the n
// that minimises the cost of a given precision, where a fork costs
// forkCost before its first measurement iteration (start-up, warmup) and
// iterCost per measurement iteration. Beyond it, a fork pays more than
// the same time spent in iterations. ok is false when a component or a
// cost is unknown; with no between-fork variance iterations always pay
// more, which ok false with n 0 also reports (the caller keeps its own
// bound).
func (m Model) OptimalIterations(forkCost, iterCost float64) (n float64, ok bool) {
	if math.IsNaN(m.Within) || math.IsNaN(m.Between) || !(forkCost > 0) || !(iterCost > 0) || m.Between == 0 {
		return 0, false
	}
	return math.Sqrt(forkCost * m.Within / (iterCost * m.Between)), true
}
