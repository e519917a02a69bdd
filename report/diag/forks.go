package diag

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// forksDisagree fires when the forks measure different things: the
// ANOVA over the forks is significant at ForksDisagreeP and the
// between-fork variance is at least ForksDisagreeRatio times the
// within-fork variance.
func forksDisagree(scores [][]float64, unit string, th spec.DiagSettings) []Diagnostic {
	if !finite(pooled(scores)) {
		return nil
	}
	m := stats.Of(scores)
	if m.Forks < 2 || math.IsNaN(m.P) || m.P >= th.ForksDisagreeP {
		return nil
	}
	ratio := math.Inf(1)
	if m.Within > 0 {
		ratio = m.Between / m.Within
	}
	if ratio < th.ForksDisagreeRatio {
		return nil
	}
	spread := (slices.Max(m.Means) - slices.Min(m.Means)) / math.Abs(m.Mean)
	if !(spread > th.ForksDisagreeSpread) {
		return nil
	}
	sdw, sdb, share := math.Sqrt(m.Within), math.Sqrt(m.Between), m.BetweenShare()
	ev := map[string]float64{"f": m.F, "p_value": m.P, "variance_ratio": ratio, "spread": spread, "within_stdev": sdw,
		"between_stdev": sdb, "between_share": share, "forks": float64(m.Forks)}
	for i, mean := range m.Means {
		ev["mean_fork_"+strconv.Itoa(i+1)] = mean
	}
	return []Diagnostic{{
		Code:     ForksDisagree,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("the forks disagree: their means are %s %s (%s apart) while iterations within a fork vary by %s (stdev); "+
			"%s of the variance lies between forks (between-fork stdev %s, %s× the within-fork variance; ANOVA F = %s, p = %.2g). "+
			"The score's error counts forks, so it carries this, but %d forks are few samples of it. "+
			"Something differs from one process to the next (memory layout, the core it ran on, state built at start-up): "+
			"run more forks so that the score averages over it, and look for the state that differs",
			list(m.Means, num), unit, pct(spread), num(sdw), pct(share), num(sdb), num(ratio), num(m.F), m.P, m.Forks),
		Evidence: ev,
	}}
}
