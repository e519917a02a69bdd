package compare

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// signedRank is the two-sided Wilcoxon signed-rank test of whether the
// differences d are centred on 0: the rank test of a paired design, as
// the Mann–Whitney U test is of two samples. Zeros are dropped
// (Wilcoxon's rule). Exact for up to maxExact differences without ties
// (the count of subsets of the ranks 1..n by their sum), otherwise the
// normal approximation with the tie correction and a continuity
// correction. It assumes only that each difference is symmetric about
// the centre under the null, which the alternation of a randomized
// ABBA schedule gives: whether A or B ran first is a coin's toss. p is
// 1 when no difference is left, and n is the number of nonzero ones.
func signedRank(d []float64) (p float64, n int) {
	type abs struct{ v, sign float64 }
	var a []abs
	for _, x := range d {
		switch {
		case x > 0:
			a = append(a, abs{x, 1})
		case x < 0:
			a = append(a, abs{-x, -1})
		}
	}
	n = len(a)
	if n == 0 {
		return 1, 0
	}
	sort.Slice(a, func(i, j int) bool { return a[i].v < a[j].v })
	// midranks, and the tie correction Σ(t³ − t)
	ranks := make([]float64, n)
	ties := 0.0
	for i := 0; i < n; {
		j := i
		for j+1 < n && a[j+1].v == a[i].v {
			j++
		}
		for k := i; k <= j; k++ {
			ranks[k] = float64(i+j)/2 + 1
		}
		t := float64(j - i + 1)
		ties += t*t*t - t
		i = j + 1
	}
	w := 0.0 // W+: the sum of the ranks of the positive differences
	for i, x := range a {
		if x.sign > 0 {
			w += ranks[i]
		}
	}
	if ties == 0 && n <= maxExact {
		return exactSignedRank(int(w), n), n
	}
	nn := float64(n)
	mean := nn * (nn + 1) / 4
	sd := math.Sqrt(nn*(nn+1)*(2*nn+1)/24 - ties/48)
	if sd == 0 {
		return 1, n
	}
	z := (math.Abs(w-mean) - 0.5) / sd
	return math.Min(1, 2*distuv.UnitNormal.Survival(math.Max(z, 0))), n
}

// maxExact bounds the exact distribution's n: its table has n(n+1)/2
// entries per rank, and beyond 50 the normal approximation is as good.
const maxExact = 50

// exactSignedRank is the exact two-sided p-value of W+ = w with n
// differences and no ties: 2·min(P(W ≤ w), P(W ≥ w)), capped at 1,
// from the number of subsets of {1..n} with each sum.
func exactSignedRank(w, n int) float64 {
	count := signedRankCounts(n)
	total := math.Pow(2, float64(n))
	lo, hi := 0.0, 0.0
	for s, c := range count {
		if s <= w {
			lo += c
		}
		if s >= w {
			hi += c
		}
	}
	return math.Min(1, 2*math.Min(lo, hi)/total)
}

// signedRankMinP is the smallest two-sided p-value the signed-rank test
// can give with n nonzero differences: all of one sign, 2/2ⁿ.
func signedRankMinP(n int) float64 {
	return math.Min(1, 2/math.Pow(2, float64(n)))
}

// signedRankOneSided returns the one-sided p-values of the signed-rank
// test of d − shift: greater, that the centre of d lies above shift
// (P(W+ ≥ w)), and less, below it (P(W+ ≤ w)). Zeros are dropped; exact
// without ties up to maxExact differences, else the normal
// approximation with the tie and continuity corrections. Both are 1
// when no difference is left.
func signedRankOneSided(d []float64, shift float64) (greater, less float64) {
	type abs struct{ v, sign float64 }
	var a []abs
	for _, x := range d {
		switch y := x - shift; {
		case y > 0:
			a = append(a, abs{y, 1})
		case y < 0:
			a = append(a, abs{-y, -1})
		}
	}
	n := len(a)
	if n == 0 {
		return 1, 1
	}
	sort.Slice(a, func(i, j int) bool { return a[i].v < a[j].v })
	w, ties := 0.0, 0.0
	for i := 0; i < n; {
		j := i
		for j+1 < n && a[j+1].v == a[i].v {
			j++
		}
		t := float64(j - i + 1)
		ties += t*t*t - t
		for k := i; k <= j; k++ {
			if a[k].sign > 0 {
				w += float64(i+j)/2 + 1
			}
		}
		i = j + 1
	}
	if ties == 0 && n <= maxExact {
		count := signedRankCounts(n)
		total := math.Pow(2, float64(n))
		for s, c := range count {
			if s >= int(w) {
				greater += c
			}
			if s <= int(w) {
				less += c
			}
		}
		return greater / total, less / total
	}
	nn := float64(n)
	mean := nn * (nn + 1) / 4
	sd := math.Sqrt(nn*(nn+1)*(2*nn+1)/24 - ties/48)
	if sd == 0 {
		return 1, 1
	}
	return distuv.UnitNormal.Survival((w - mean - 0.5) / sd), distuv.UnitNormal.CDF((w - mean + 0.5) / sd)
}

// signedRankCounts is the number of subsets of the ranks 1..n with each
// sum: the null distribution of W+ times 2ⁿ.
func signedRankCounts(n int) []float64 {
	top := n * (n + 1) / 2
	count := make([]float64, top+1)
	count[0] = 1
	for r := 1; r <= n; r++ {
		for s := top; s >= r; s-- {
			count[s] += count[s-r]
		}
	}
	return count
}

// hodgesLehmann is the Hodges–Lehmann estimate of the centre of d, the
// median of its Walsh averages (dᵢ + dⱼ)/2 for i ≤ j, and its (1−alpha)
// confidence interval from the signed-rank test's distribution: the
// k-th smallest and k-th largest Walsh average, k the largest count with
// P(W+ < k) ≤ alpha/2 (Hollander and Wolfe). The interval is exactly the
// shifts the two-sided signed-rank test does not reject at alpha, so it
// lies beyond a bound exactly when the test of d − bound does. It
// assumes only that d is symmetric about its centre, which a randomized
// ABBA order gives the log ratios of pairs; a fork that a busy machine
// slowed tenfold moves it by one rank, where it moves a mean and a t
// interval by its size. ok is false when no interval exists at alpha
// with so few values (fewer than 6 at 0.05).
func hodgesLehmann(d []float64, alpha float64) (est, lo, hi float64, ok bool) {
	n := len(d)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), false
	}
	walsh := make([]float64, 0, n*(n+1)/2)
	for i := range d {
		for j := i; j < n; j++ {
			walsh = append(walsh, (d[i]+d[j])/2)
		}
	}
	sort.Float64s(walsh)
	m := len(walsh)
	if m%2 == 1 {
		est = walsh[m/2]
	} else {
		est = (walsh[m/2-1] + walsh[m/2]) / 2
	}
	var k int
	if n <= maxExact {
		count := signedRankCounts(n)
		total := math.Pow(2, float64(n))
		cum := 0.0
		for s := 0; s < len(count); s++ { // P(W+ ≤ s) ≤ alpha/2 ⇒ k = s + 1
			cum += count[s] / total
			if cum > alpha/2 {
				break
			}
			k = s + 1
		}
	} else {
		nn := float64(n)
		z := distuv.UnitNormal.Quantile(1 - alpha/2)
		k = int(math.Floor(nn*(nn+1)/4 - z*math.Sqrt(nn*(nn+1)*(2*nn+1)/24)))
	}
	if k < 1 || k > m/2 {
		return est, math.Inf(-1), math.Inf(1), false
	}
	return est, walsh[k-1], walsh[m-k], true
}
