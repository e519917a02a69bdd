package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Confidence sequences. A sequential decision (ab looks at its pairs
// after every block it runs and stops a run once its interval decides)
// needs an interval that holds at every look, not only at a number of pairs fixed in advance: a
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

// huberK is where ψ clips, in robust standard deviations (NormalMAD·MAD):
// 95 % as efficient as the mean on normal ratios.
const huberK = 1.5

// Huber is the Huber location of d and the standard deviation that a
// confidence sequence of it uses: sd(ψ(d − est)) / (share of |d − est|
// under the clip).
func Huber(d []float64) (est, sd float64) {
	c := huberK * NormalMAD * MedianAbsDev(d)
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

// SequenceTuned is the number of samples at which the confidence
// sequence is narrowest.
const SequenceTuned = 30

// SequenceHalfWidth is the half-width of the (1−alpha) confidence
// sequence of a mean after n samples of standard deviation sd; +Inf
// below 2 samples.
func SequenceHalfWidth(sd float64, n int, alpha float64) float64 {
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
	small := TQuantile(1-alpha/2, t-1) / NormalQuantile(1-alpha/2)
	return small * sd * math.Sqrt(2*a/(t*t*rho2)*math.Log(math.Sqrt(a)/alpha))
}

// SequencePairs is the fewest samples (ab's pairs) at which the confidence sequence at
// spread sd would be narrower than margin (on the log scale), at most
// bound; ok is false beyond it.
func SequencePairs(sd, margin, alpha float64, bound int) (int, bool) {
	if !(margin > 0) || math.IsNaN(sd) {
		return 0, false
	}
	fits := func(n int) bool { return SequenceHalfWidth(sd, n, alpha) < margin }
	if !fits(bound) {
		return 0, false
	}
	return Bisect(1, bound, fits), true // the half-width shrinks with n
}

// SequenceP is the anytime-valid p-value of a mean of 0: the largest
// level whose confidence sequence after n samples of mean and sd still
// holds 0 (1 when even level 1 does).
func SequenceP(mean, sd float64, n int) float64 {
	if n < 2 {
		return 1
	}
	if sd == 0 {
		if mean == 0 {
			return 1
		}
		return 0
	}
	lo, hi := 1e-300, 1.0 // the half-width grows as the level falls
	if SequenceHalfWidth(sd, n, hi) >= math.Abs(mean) {
		return 1
	}
	if SequenceHalfWidth(sd, n, lo) < math.Abs(mean) {
		return 0
	}
	for range 60 {
		mid := math.Sqrt(lo * hi)
		if SequenceHalfWidth(sd, n, mid) < math.Abs(mean) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
