package diag

import (
	"fmt"
	"math"
)

// tooFewSamples fires when the score has no useful error (n ≤ 2: with two
// values the 99.9 % Student-t factor is 636) or when its 99.9 % interval
// (score ± error: 2 × error wide) is wider than the score itself.
func tooFewSamples(in *Input) []Diagnostic {
	ev := map[string]float64{"n": float64(in.Count), "score": in.Score, "error": in.Error}
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
		return []Diagnostic{{
			Code:     TooFewSamples,
			Severity: SeverityWarning,
			// The comparison is of the interval's full width, so the
			// message says that width: "169 ± 98" is 196 wide, and
			// 98 alone would not read as wider than 169.
			Message: fmt.Sprintf("the 99.9 %% interval of the score, %s ± %s %s = [%s, %s] (n = %d), is %s %s wide, wider than the score itself; %s",
				num(in.Score), num(in.Error), in.Unit, num(in.Score-in.Error), num(in.Score+in.Error), in.Count,
				num(2*in.Error), in.Unit, remedy),
			Evidence: ev,
		}}
	}
	return nil
}
