package compare

import (
	"fmt"
	"math"
)

// ab's verdicts. A run's change is the Huber location of its pairs' log
// ratios with the confidence sequence of stats.SequenceHalfWidth, which
// holds at every look however often ab looks and stops (report/stats
// says why that interval and that location).

// SequenceAlpha is ab's default level for the family of its runs: a
// batch that looks after every block and stops each run the first time
// its interval decides has many chances to be wrong, and a gate run on
// every change should raise a false alarm seldom: at most 1 batch in
// 100 when nothing changed (docs/statistics.md has the rates).
const SequenceAlpha = 0.01

// SequenceMinPairs is the fewest pairs a run is judged from: the
// sequence is asymptotic, its spread estimated from the pairs
// themselves, and from a handful that estimate is too rough for its
// error rates (simulated from 10 pairs on: TestSequentialAAKeepsAlpha).
const SequenceMinPairs = 10

// sequenceVerdict reads an interval [lo, hi] of a relative change
// against the threshold th, better being the unit's direction: within
// ±th unchanged (shown smaller than what counts); else wholly on the
// worse side of 0 a regression, on the better side an improvement;
// else undecided. Each error the threshold is there to bound is then
// at most alpha: a change of none called a regression or an
// improvement, and a change of th or more called unchanged. As pairs
// come the interval narrows until one of the two happens, so a change
// nearer th than 0 ends, in time, a regression, and one nearer 0
// unchanged.
func sequenceVerdict(lo, hi, th float64, better string) (Verdict, bool) {
	worse, good := Regression, Improvement
	if better == "higher" {
		worse, good = Improvement, Regression
	}
	switch {
	case th > 0 && lo > -th && hi < th:
		return Unchanged, true
	case lo > 0:
		return worse, true
	case hi < 0:
		return good, true
	}
	return Inconclusive, false
}

// sequenceMargin is how far the interval's half-width must fall, on the
// log scale, for a run whose change is est (a log ratio) to decide
// against th: under |est| to show a change, or under th − |est| to show
// one within ±th, whichever comes first.
func sequenceMargin(est, th float64) float64 {
	m := math.Abs(est)
	if th > 0 && th < 1 {
		m = math.Max(m, math.Min(math.Log1p(th)-est, est-math.Log1p(-th)))
	}
	return m
}

// sequenceReason says why an interval [lo, hi] did not decide.
func sequenceReason(lo, hi, th, alpha float64) string {
	ci := fmt.Sprintf("the %s confidence sequence [%+.2f%%, %+.2f%%] of the change", percent(1-alpha, false), 100*lo, 100*hi)
	if th == 0 {
		return "no change shown: " + ci + " holds 0"
	}
	return fmt.Sprintf("not decided: %s holds 0 and reaches beyond ±%s", ci, percent(th, false))
}
