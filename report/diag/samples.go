package diag

import (
	"fmt"
	"math"

	"github.com/benchspec/benchspec/report/stats"
)

// tooFewSamples fires when the score has no useful error (n ≤ 2: with two
// values the 99.9 % Student-t factor is 636) or when its 99.9 % interval
// (score ± error: 2 × error wide) is wider than the score itself.
func tooFewSamples(in *Input) []Diagnostic {
	ev := map[string]float64{"n": float64(in.Count), "score": in.Score, "error": in.Error, "forks": float64(len(in.Scores))}
	remedy := "run more measurement iterations or more forks"
	switch {
	case in.Count <= 2:
		return []Diagnostic{{
			Code:     TooFewSamples,
			Severity: SeverityWarning,
			Message:  fmt.Sprintf("n = %d: the 99.9 %% error of the score cannot be computed usefully from so few values; %s (n ≥ 5)", in.Count, remedy),
			Evidence: ev,
		}}
	case !math.IsNaN(in.Error) && 2*in.Error > math.Abs(in.Score):
		// The error counts forks: only forks narrow it.
		m := stats.Of(in.Scores)
		more := "run more forks"
		if k, ok := m.ForksFor(math.Abs(in.Score)/2, stats.Confidence); ok {
			more = fmt.Sprintf("run more forks (about %d would make it narrower than the score)", k)
			ev["forks_needed"] = float64(k)
		}
		return []Diagnostic{{
			Code:     TooFewSamples,
			Severity: SeverityWarning,
			// The comparison is of the interval's full width, so the
			// message says that width.
			Message: fmt.Sprintf("the 99.9 %% interval of the score, %s ± %s %s = [%s, %s] (%d forks, fork means %s), is %s %s wide, wider than the score itself; %s",
				num(in.Score), num(in.Error), in.Unit, num(in.Score-in.Error), num(in.Score+in.Error), m.Forks, list(m.Means, num),
				num(2*in.Error), in.Unit, more),
			Evidence: ev,
		}}
	case math.IsNaN(in.Error):
		// One fork has no error that counts forks, but if even the
		// iterations' own interval, too narrow as it is, is wider than
		// the score, the number is noise.
		iv := intervalOf(pooled(in.Scores))
		if !(2*iv.half > math.Abs(in.Score)) {
			return nil
		}
		ev["iteration_error"] = iv.half
		return []Diagnostic{{
			Code:     TooFewSamples,
			Severity: SeverityWarning,
			Message: fmt.Sprintf("the 99.9 %% interval of the score, %s ± %s %s = [%s, %s] (n = %d, one fork: over its iterations as if independent, too narrow as that is), is %s %s wide, wider than the score itself; %s",
				num(in.Score), num(iv.half), in.Unit, num(in.Score-iv.half), num(in.Score+iv.half), in.Count, num(2*iv.half), in.Unit, remedy),
			Evidence: ev,
		}}
	}
	return nil
}
