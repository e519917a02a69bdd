package stats

import (
	"math"
	"sort"
)

// Holm returns Holm's adjusted p-values of p, in p's order: the i-th
// smallest times (m − i + 1), made monotone and capped at 1, m being
// the number of valid p-values. A hypothesis is rejected at alpha when
// its adjusted p is below alpha: the step-down procedure, which controls
// the family-wise error rate at alpha under any dependence. NaN stays
// NaN and is no member of the family.
func Holm(p []float64) []float64 {
	idx := make([]int, 0, len(p))
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	out := make([]float64, len(p))
	for i := range out {
		out[i] = math.NaN()
	}
	m, run := len(idx), 0.0
	for rank, i := range idx {
		run = math.Max(run, math.Min(1, float64(m-rank)*p[i]))
		out[i] = run
	}
	return out
}

// BeyondP is the p-value of "the change lies beyond ±th" for an
// estimate est of a change with standard error se and df degrees of
// freedom, th the threshold on est's scale (up for an increase, down
// for a decrease, down < 0 < up): twice the smaller of the one-sided
// p-values of est > up and est < down, capped at 1. It is below alpha
// exactly when the (1−alpha) interval est ± t·se lies wholly beyond one
// of the bounds, so the verdict the interval gives and the p-value the
// family's correction adjusts agree; with th 0 it is the two-sided
// p-value of a change. se 0: 0 when est is beyond a bound, else 1.
func BeyondP(est, se, df, up, down float64) float64 {
	if se == 0 {
		if est > up || est < down {
			return 0
		}
		return 1
	}
	p := 2 * math.Min(TSurvival((est-up)/se, df), TSurvival((down-est)/se, df))
	return math.Min(1, p)
}
