package diag

import (
	"fmt"
	"math"
	"slices"

	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// trend is the seasonal Mann-Kendall test over per-fork series (Hirsch,
// Slack and Smith 1982): each fork is a season, its S statistic and
// variance (corrected for ties) are summed, and the normal approximation
// with continuity correction gives a two-sided p-value. Slope is Sen's
// slope, the median of the pairwise slopes within the forks.
type trend struct {
	s, variance, z, p, slope float64
	n                        int // values in forks with at least 3 values
}

func mannKendall(perFork [][]float64) trend {
	var t trend
	var slopes []float64
	for _, xs := range perFork {
		n := len(xs)
		if n < 3 {
			continue
		}
		t.n += n
		for i := range n {
			for j := i + 1; j < n; j++ {
				d := xs[j] - xs[i]
				switch {
				case d > 0:
					t.s++
				case d < 0:
					t.s--
				}
				slopes = append(slopes, d/float64(j-i))
			}
		}
		v := float64(n*(n-1)*(2*n+5)) / 18
		for _, g := range tieGroups(xs) {
			v -= float64(g*(g-1)*(2*g+5)) / 18
		}
		t.variance += v
	}
	t.p, t.slope = 1, stats.Median(slopes)
	if t.variance > 0 && t.s != 0 {
		t.z = (t.s - math.Copysign(1, t.s)) / math.Sqrt(t.variance)
		t.p = stats.NormalTwoSided(t.z)
	}
	return t
}

// tieGroups returns the sizes of the groups of equal values (size ≥ 2).
func tieGroups(xs []float64) []int {
	s := slices.Sorted(slices.Values(xs))
	var groups []int
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i > 1 {
			groups = append(groups, j-i)
		}
		i = j
	}
	return groups
}

// notSteady fires when the measured iterations trend: significant at
// NotSteadyP and steeper than NotSteadySlope of the mean per iteration.
func notSteady(scores [][]float64, unit string, th spec.DiagSettings) []Diagnostic {
	all := pooled(scores)
	if !finite(all) {
		return nil
	}
	t := mannKendall(scores)
	mean := intervalOf(all).mean
	if t.n < 3 || mean == 0 {
		return nil
	}
	rel := t.slope / math.Abs(mean)
	if t.p >= th.NotSteadyP || math.Abs(rel) <= th.NotSteadySlope {
		return nil
	}
	dir := "rise"
	if t.slope < 0 {
		dir = "fall"
	}
	return []Diagnostic{{
		Code:     NotSteady,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("the measured iterations %s steadily: %s %s per iteration (%s of the mean; Sen's slope), Mann-Kendall p = %.2g over %d iterations of %d forks. "+
			"The benchmark has not reached a steady state, or has none because every call does more work than the last. "+
			"Add warmup iterations; if the state grows with every call, measure in ss mode with a fresh state per iteration (SetupIteration)",
			dir, signed(t.slope), unit, pct(rel), t.p, t.n, len(scores)),
		Evidence: map[string]float64{"slope": t.slope, "slope_rel": rel, "s": t.s, "z": t.z, "p_value": t.p, "n": float64(t.n)},
	}}
}
