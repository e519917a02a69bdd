package diag

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/benchspec/benchspec/spec"
)

// anova is a one-way analysis of variance with the forks as groups.
type anova struct {
	f, p  float64
	ratio float64 // between-fork variance component over within-fork variance
	means []float64
	sdw   float64 // within-fork standard deviation, √MSW
}

func oneWay(groups [][]float64) (anova, bool) {
	k, n := 0, 0
	var sum, sumSq float64
	for _, g := range groups {
		if len(g) > 0 {
			k++
			n += len(g)
			sumSq += float64(len(g) * len(g))
			for _, x := range g {
				sum += x
			}
		}
	}
	if k < 2 || n-k < 1 {
		return anova{}, false
	}
	grand := sum / float64(n)
	var ssb, ssw float64
	a := anova{}
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		m := intervalOf(g).mean
		a.means = append(a.means, m)
		ssb += float64(len(g)) * (m - grand) * (m - grand)
		for _, x := range g {
			ssw += (x - m) * (x - m)
		}
	}
	dfb, dfw := float64(k-1), float64(n-k)
	msb, msw := ssb/dfb, ssw/dfw
	a.sdw = math.Sqrt(msw)
	// n0 is the effective group size of unbalanced groups.
	n0 := (float64(n) - sumSq/float64(n)) / dfb
	switch {
	case msw > 0:
		a.f = msb / msw
		a.p = distuv.F{D1: dfb, D2: dfw}.Survival(a.f)
		a.ratio = math.Max(msb-msw, 0) / n0 / msw
	case msb > 0: // no spread within forks, some between them
		a.f, a.p, a.ratio = math.Inf(1), 0, math.Inf(1)
	default:
		a.f, a.p = math.NaN(), 1
	}
	return a, true
}

// forksDisagree fires when the forks measure different things: the
// ANOVA over the forks is significant at ForksDisagreeP and the
// between-fork variance is at least ForksDisagreeRatio times the
// within-fork variance.
func forksDisagree(scores [][]float64, unit string, th spec.DiagSettings) []Diagnostic {
	if !finite(pooled(scores)) {
		return nil
	}
	a, ok := oneWay(scores)
	if !ok || a.p >= th.ForksDisagreeP || a.ratio < th.ForksDisagreeRatio {
		return nil
	}
	grand := intervalOf(pooled(scores)).mean
	spread := (slices.Max(a.means) - slices.Min(a.means)) / math.Abs(grand)
	if !(spread > th.ForksDisagreeSpread) {
		return nil
	}
	ev := map[string]float64{"f": a.f, "p_value": a.p, "variance_ratio": a.ratio, "spread": spread, "within_stdev": a.sdw}
	for i, m := range a.means {
		ev["mean_fork_"+strconv.Itoa(i+1)] = m
	}
	return []Diagnostic{{
		Code:     ForksDisagree,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("the forks disagree: their means are %s %s (%s apart) while iterations within a fork vary by %s (stdev); "+
			"the between-fork variance is %s× the within-fork one (ANOVA F = %s, p = %.2g), so the error, which treats every iteration as independent, is too small. "+
			"Something differs from one process to the next (memory layout, the core it ran on, state built at start-up): "+
			"run more forks so that the score averages over it, and look for the state that differs",
			list(a.means, num), unit, pct(spread), num(a.sdw), num(a.ratio), num(a.f), a.p),
		Evidence: ev,
	}}
}
