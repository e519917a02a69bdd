package compare

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/report/stats"
)

// A sequential decision: ab looks at its pairs after every block it
// runs and stops a run once its interval decides, so the interval must
// hold at every look, not only at a number of pairs fixed in advance: a
// fixed-n 95 % interval re-checked after every block crosses a bound by
// chance far more often than 5 % of the time (the more looks, the
// surer). The interval here is the asymptotic confidence sequence of
// Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas ("Time-uniform central
// limit theory and asymptotic confidence sequences", Annals of
// Statistics 2024, Theorem 2.2): for the mean of the pairs' log ratios
// after n pairs,
//
//	mean ± sd·√( 2(nρ²+1)/(n²ρ²) · ln(√(nρ²+1)/α) ),
//
// which covers the true mean at every n at once with probability 1−α
// (as n grows; the tests measure it at ab's block sizes). ρ tunes where
// it is narrowest: at SequenceTuned pairs, where a 2 % change on a
// quiet machine decides. It costs width: about 3.5 σ/√n at 30 pairs and
// α = 0.025 where a fixed-n interval has 2.4 σ/√n, the price of being
// allowed to stop whenever it decides, whatever the number of looks.

// The sequence is of a Huber location of the log ratios rather than of
// their mean: a pair whose fork a busy neighbour slowed 2× moves a mean
// by its size and widens its spread for the rest of the batch, where
// clipped at huberK robust standard deviations from the centre it
// counts as a large ratio and no more. The ratios are symmetric about
// the change (each pair's order is random), so the Huber location is
// the change. Its spread is the M-estimator's (the sandwich): the
// spread of the clipped ratios ψ(dᵢ − δ̂) over the share of them
// inside the clip, which the sequence takes as its σ. (Inverting the
// sequence of ψ's mean over δ instead, each δ with ψ's own spread, is
// not valid: far from δ̂ most ratios clip alike, their spread falls to
// nothing, and the interval closes in on that side; beside a busy
// neighbour it called an unchanged run +1.5 % [+0.26 %, +6.9 %].)

// huberK is where ψ clips, in robust standard deviations (1.4826 MAD):
// 95 % as efficient as the mean on normal ratios.
const huberK = 1.5

// huberLocation is the Huber location of d and the standard deviation
// that its mean-like sequence uses: sd(ψ(d − est)) / (share of |d − est|
// under the clip).
func huberLocation(d []float64) (est, sd float64) {
	c := huberK * stats.NormalMAD * stats.MedianAbsDev(d)
	if c == 0 {
		// More than half the ratios are equal: clip at the ratios'
		// own spread instead, or none when all are.
		if _, s := stat.MeanStdDev(d, nil); s > 0 {
			c = huberK * s
		} else {
			return d[0], 0
		}
	}
	psi := make([]float64, len(d))
	at := func(delta float64) (mean, sd float64, inside int) {
		for i, x := range d {
			psi[i] = min(max(x-delta, -c), c)
			if math.Abs(x-delta) < c {
				inside++
			}
		}
		mean, sd = stat.MeanStdDev(psi, nil)
		return mean, sd, inside
	}
	// The mean of ψ falls as δ grows, from c below min(d) − c to −c
	// above max(d) + c: bisect for its zero.
	lo, hi := d[0]-c, d[0]+c
	for _, x := range d {
		lo, hi = min(lo, x-c), max(hi, x+c)
	}
	for range 80 {
		mid := (lo + hi) / 2
		if m, _, _ := at(mid); m > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	est = (lo + hi) / 2
	_, s, inside := at(est)
	return est, s / (float64(max(inside, 1)) / float64(len(d)))
}

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

// SequenceTuned is the number of pairs at which the confidence sequence
// is narrowest.
const SequenceTuned = 30

// sequenceHalfWidth is the half-width of the (1−alpha) confidence
// sequence of a mean after n samples of standard deviation sd; +Inf
// below 2 samples.
func sequenceHalfWidth(sd float64, n int, alpha float64) float64 {
	if n < 2 {
		return math.Inf(1)
	}
	l := -2 * math.Log(alpha)
	rho2 := (l + math.Log(l+1)) / SequenceTuned
	t := float64(n)
	a := t*rho2 + 1
	// The spread is estimated from the n values themselves: widen by
	// Student's t over the normal quantile, as a fixed-n interval does,
	// which matters only at the first looks.
	small := stats.TQuantile(1-alpha/2, t-1) / stats.NormalQuantile(1-alpha/2)
	return small * sd * math.Sqrt(2*a/(t*t*rho2)*math.Log(math.Sqrt(a)/alpha))
}

// sequencePairs is the fewest pairs at which the confidence sequence at
// spread sd would be narrower than margin (on the log scale), at most
// bound; ok is false beyond it.
func sequencePairs(sd, margin, alpha float64, bound int) (int, bool) {
	if !(margin > 0) || math.IsNaN(sd) {
		return 0, false
	}
	fits := func(n int) bool { return sequenceHalfWidth(sd, n, alpha) < margin }
	if !fits(bound) {
		return 0, false
	}
	return stats.Bisect(1, bound, fits), true // the half-width shrinks with n
}

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
	ci := fmt.Sprintf("the %g%% confidence sequence [%+.2f%%, %+.2f%%] of the change", 100*(1-alpha), 100*lo, 100*hi)
	if th == 0 {
		return "no change shown: " + ci + " holds 0"
	}
	return fmt.Sprintf("not decided: %s holds 0 and reaches beyond ±%s", ci, percent(th, false))
}
