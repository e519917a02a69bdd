package diag

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/spec"
)

// Codes of the run diagnostics. They are stable: specs ignore them by
// name and tools match on them.
const (
	DeadCode        = "DEAD_CODE"
	TimerResolution = "TIMER_RESOLUTION"
	NotSteady       = "NOT_STEADY"
	ForksDisagree   = "FORKS_DISAGREE"
	Multimodal      = "MULTIMODAL"
	HighVariance    = "HIGH_VARIANCE"
	TooFewSamples   = "TOO_FEW_SAMPLES"
	InProcess       = "IN_PROCESS"
)

// Codes lists the run diagnostic codes in the order Check reports them.
var Codes = []string{InProcess, TimerResolution, DeadCode, NotSteady, ForksDisagree, TooFewSamples, Multimodal, HighVariance}

// Severities.
const (
	// SeverityWarning: do not use the number as it is.
	SeverityWarning = "warning"
	// SeverityInfo: context that does not make the number wrong.
	SeverityInfo = "info"
)

// Diagnostic is a reason to distrust a number: a stable code, a severity,
// a message that names the remedy, and the numbers that triggered it.
// The JSON report carries it as is (report.Diagnostic).
type Diagnostic struct {
	Code     string   `json:"code"`     // stable, e.g. DEAD_CODE
	Severity string   `json:"severity"` // SeverityWarning or SeverityInfo
	Message  string   `json:"message"`  // what is wrong and the remedy
	Evidence Evidence `json:"evidence"` // the numbers behind it, by name
}

// Evidence are the numbers behind a diagnostic, by name. A number that
// does not exist is NaN, and null in JSON.
type Evidence map[string]float64

// MarshalJSON writes e as an object with its keys sorted, NaN and ±Inf
// as null; no evidence is {}.
func (e Evidence) MarshalJSON() ([]byte, error) {
	m := make(map[string]*float64, len(e))
	for k, v := range e {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			m[k] = &v
		} else {
			m[k] = nil
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes, null as NaN.
func (e *Evidence) UnmarshalJSON(data []byte) error {
	var m map[string]*float64
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m == nil {
		*e = nil
		return nil
	}
	*e = make(Evidence, len(m))
	for k, v := range m {
		(*e)[k] = math.NaN()
		if v != nil {
			(*e)[k] = *v
		}
	}
	return nil
}

// String is "severity CODE: message".
func (d Diagnostic) String() string { return d.Severity + " " + d.Code + ": " + d.Message }

// Input is what the checks read of one run that measured successfully.
type Input struct {
	Mode     spec.Mode
	Settings spec.Settings // as measured; Settings.Diagnostics holds the thresholds
	Threads  int           // goroutines per fork, `threads: max` resolved
	Unit     string        // of Scores, Score and Error, e.g. "ns/op"
	UnitNs   float64       // nanoseconds per time unit of Unit
	// Forks are the measured forks (warmup forks left out) in fork order.
	Forks []protocol.ForkResult
	// Scores are, per measured fork in the same order, its measurement
	// iteration scores in Unit.
	Scores [][]float64
	// Score, Error and Count are the primary metric: its mean, its 99.9 %
	// half-width with forks as the unit (NaN with fewer than 2 forks) and
	// its count.
	Score, Error float64
	Count        int
	// Samples is sample mode's merged histogram of per-op times in
	// nanoseconds; nil in the other modes.
	Samples *hist.Histogram
}

// Check runs every check on a run and returns its diagnostics, in the
// order of Codes, without the codes the settings ignore and without those
// that follow from another diagnostic (see the package doc).
func Check(in *Input) []Diagnostic {
	th := in.Settings.Diagnostics.WithDefaults()
	var out []Diagnostic
	fired := map[string]bool{}
	add := func(ds ...Diagnostic) {
		for _, d := range ds {
			if !th.Ignores(d.Code) {
				out = append(out, d)
				fired[d.Code] = true
			}
		}
	}
	if in.Settings.Forks == 0 {
		add(inProcess())
	}
	if in.Count <= 2 {
		add(tooFewSamples(in)...)
		return out
	}
	add(timerResolution(in, th)...)
	if fired[TimerResolution] {
		return out
	}
	add(deadCode(in, th)...)
	if fired[DeadCode] {
		return out
	}
	add(notSteady(in.Scores, in.Unit, th)...)
	add(forksDisagree(in.Scores, in.Unit, th)...)
	if fired[NotSteady] {
		return out
	}
	if !fired[ForksDisagree] { // which explains a wide interval
		add(tooFewSamples(in)...)
	}
	add(multimodal(in, th, fired[ForksDisagree])...)
	add(highVariance(in.Scores, th)...)
	return out
}

func inProcess() Diagnostic {
	return Diagnostic{
		Code:     InProcess,
		Severity: SeverityWarning,
		Message: "ran in the batch's one shared process (forks: 0), after whatever ran there before it: " +
			"its heap, GC pacing, pools and goroutines can distort the number. Use it for debugging only; measure with forks ≥ 1",
		Evidence: map[string]float64{"forks": 0},
	}
}

// pooled returns every value of per-fork values in one slice.
func pooled(perFork [][]float64) []float64 {
	var all []float64
	for _, f := range perFork {
		all = append(all, f...)
	}
	return all
}

// finite reports whether every value is a finite number.
func finite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// num formats a number for a message with 3 significant digits, or more
// when the number is large.
func num(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "n/a"
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

// signed is num with a sign.
func signed(v float64) string {
	if v > 0 {
		return "+" + num(v)
	}
	return num(v)
}

// pct formats a fraction as a percentage.
func pct(f float64) string {
	switch a := math.Abs(f) * 100; {
	case a >= 100:
		return fmt.Sprintf("%.0f %%", f*100)
	case a >= 10:
		return fmt.Sprintf("%.1f %%", f*100)
	default:
		return fmt.Sprintf("%.2g %%", f*100)
	}
}

// list joins formatted numbers with ", ".
func list(vs []float64, f func(float64) string) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = f(v)
	}
	return strings.Join(s, ", ")
}
