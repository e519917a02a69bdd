package diag

import (
	"fmt"
	"math"

	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// tukeyK places Tukey's fences: 1.5 IQR beyond the quartiles.
const tukeyK = 1.5

// highVariance fires as a warning when most iterations disagree: the
// robust coefficient of variation (normal-consistent MAD over the median)
// is above HighVarianceCV. A spike or two from another process moves the
// stdev but not the MAD; such outliers are reported as info, and only
// when dropping them moves the mean by more than HighVarianceOutlierShift.
func highVariance(scores [][]float64, th spec.DiagSettings) []Diagnostic {
	all := pooled(scores)
	if len(all) < 3 || !finite(all) {
		return nil
	}
	mean, med := intervalOf(all).mean, stats.Median(all)
	if med == 0 || mean == 0 {
		return nil
	}
	rcv := stats.NormalMAD * stats.MedianAbsDev(all) / math.Abs(med)
	sd := 0.0
	for _, x := range all {
		sd += (x - mean) * (x - mean)
	}
	cv := math.Sqrt(sd/float64(len(all)-1)) / math.Abs(mean)
	outliers, lo, hi := tukey(all, tukeyK)
	var kept []float64
	for _, x := range all {
		if x >= lo && x <= hi {
			kept = append(kept, x)
		}
	}
	shift := 0.0
	if len(kept) > 0 {
		shift = (mean - intervalOf(kept).mean) / math.Abs(intervalOf(kept).mean)
	}
	ev := map[string]float64{"cv": cv, "robust_cv": rcv, "outliers": float64(len(outliers)), "outlier_shift": shift, "n": float64(len(all))}
	remedy := "find what else runs on the machine, make iterations longer, add warmup, and look at the raw data in the JSON report"
	// Spread that lies mostly between forks is each process settling at
	// its own speed (where its code and data landed): longer iterations
	// do not narrow it, and the error over fork means already counts it.
	// Two forks give the share one degree of freedom: too few to say.
	share := math.NaN()
	if len(scores) >= 3 {
		share = stats.Of(scores).BetweenShare()
		ev["between_share"] = share
	}
	switch {
	case rcv > th.HighVarianceCV && share > 0.5:
		return []Diagnostic{{
			Code:     HighVariance,
			Severity: SeverityWarning,
			Message: fmt.Sprintf("the iterations spread widely, mostly between forks: robust CV %s (stdev %s of the mean; %s of the variance between the %d forks) over %d iterations, above %s. "+
				"Each process settles at its own speed, or some ran beside other work. "+
				"The error counts forks, so it carries this; more forks narrow it, longer iterations do not. "+
				"Look for the state that differs from one process to the next in the JSON report's fork means",
				pct(rcv), pct(cv), pct(share), len(scores), len(all), pct(th.HighVarianceCV)),
			Evidence: ev,
		}}
	case rcv > th.HighVarianceCV:
		return []Diagnostic{{
			Code:     HighVariance,
			Severity: SeverityWarning,
			Message: fmt.Sprintf("the iterations spread widely: robust CV %s (stdev %s of the mean) over %d iterations, above %s, with %s beyond Tukey's fences; "+
				"the score and its error describe noise. %s",
				pct(rcv), pct(cv), len(all), pct(th.HighVarianceCV), plural(len(outliers), "outlier"), capitalize(remedy)),
			Evidence: ev,
		}}
	case len(outliers) > 0 && math.Abs(shift) > th.HighVarianceOutlierShift:
		return []Diagnostic{{
			Code:     HighVariance,
			Severity: SeverityInfo,
			Message: fmt.Sprintf("%d of %d iterations lie beyond Tukey's fences [%s, %s] and move the mean by %s (median %s); most iterations agree (robust CV %s). "+
				"Probably interference from another process: %s",
				len(outliers), len(all), num(lo), num(hi), pct(shift), num(med), pct(rcv), remedy),
			Evidence: ev,
		}}
	}
	return nil
}

// plural is "1 outlier", "2 outliers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
