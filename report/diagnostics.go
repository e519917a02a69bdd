package report

import (
	"github.com/benchspec/benchspec/internal/diag"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// diagnose runs the trust diagnostics (package internal/diag) on a run that
// measured, with the thresholds of its spec entry.
func diagnose(r *plan.Run, threads int, measured []*protocol.ForkResult, primary *Metric, samples *hist.Histogram) []Diagnostic {
	in := &diag.Input{
		Mode:     r.Mode,
		Settings: r.Settings,
		Threads:  threads,
		Unit:     primary.ScoreUnit,
		UnitNs:   UnitNs(r.Settings.TimeUnit),
		Forks:    make([]protocol.ForkResult, len(measured)),
		Scores:   make([][]float64, len(primary.RawData)),
		Score:    float64(primary.Score),
		Error:    float64(primary.ScoreError),
		Count:    primary.Count,
	}
	for i, f := range measured {
		in.Forks[i] = *f
	}
	for i, fork := range primary.RawData {
		in.Scores[i] = make([]float64, len(fork))
		for j, v := range fork {
			in.Scores[i][j] = float64(v)
		}
	}
	if r.Mode.Samples() && samples != nil && samples.Count() > 0 {
		in.Samples = samples
	}
	return diagnostics(diag.Check(in))
}

// diagnostics converts the package's diagnostics to the report's; never
// nil, so that JSON has [] rather than null.
func diagnostics(ds []diag.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = Diagnostic{Code: d.Code, Severity: d.Severity, Message: d.Message, Evidence: floatMap(d.Evidence)}
	}
	return out
}

// Warnings counts the diagnostics of severity warning in the report: of
// every run, and of the environment check. `run --strict` fails on any.
func (r *Report) Warnings() int {
	n := 0
	count := func(ds []Diagnostic) {
		for _, d := range ds {
			if d.Severity == diag.SeverityWarning {
				n++
			}
		}
	}
	for i := range r.Runs {
		count(r.Runs[i].Diagnostics)
	}
	if r.Env.Check != nil {
		count(r.Env.Check.Diagnostics)
	}
	return n
}

// DiagSettings are the thresholds a run's diagnostics used (spec key
// `diagnostics:`), with the defaults filled in.
type DiagSettings struct {
	Ignore                   []string `json:"ignore"`
	DeadCodeRatio            float64  `json:"dead_code_ratio"`
	TimerRatio               float64  `json:"timer_ratio"`
	NotSteadyP               float64  `json:"not_steady_p"`
	NotSteadySlope           float64  `json:"not_steady_slope"`
	ForksDisagreeP           float64  `json:"forks_disagree_p"`
	ForksDisagreeRatio       float64  `json:"forks_disagree_ratio"`
	ForksDisagreeSpread      float64  `json:"forks_disagree_spread"`
	MultimodalMValue         float64  `json:"multimodal_mvalue"`
	MultimodalSeparation     float64  `json:"multimodal_separation"`
	MultimodalMinValues      int      `json:"multimodal_min_values"`
	HighVarianceCV           float64  `json:"high_variance_cv"`
	HighVarianceOutlierShift float64  `json:"high_variance_outlier_shift"`
}

func diagSettingsOf(d spec.DiagSettings) *DiagSettings {
	d = d.WithDefaults()
	return &DiagSettings{
		Ignore:                   d.Ignore,
		DeadCodeRatio:            d.DeadCodeRatio,
		TimerRatio:               d.TimerRatio,
		NotSteadyP:               d.NotSteadyP,
		NotSteadySlope:           d.NotSteadySlope,
		ForksDisagreeP:           d.ForksDisagreeP,
		ForksDisagreeRatio:       d.ForksDisagreeRatio,
		ForksDisagreeSpread:      d.ForksDisagreeSpread,
		MultimodalMValue:         d.MultimodalMValue,
		MultimodalSeparation:     d.MultimodalSeparation,
		MultimodalMinValues:      d.MultimodalMinValues,
		HighVarianceCV:           d.HighVarianceCV,
		HighVarianceOutlierShift: d.HighVarianceOutlierShift,
	}
}

// optionalFloats is floats, or nil for no values (omitted from JSON).
func optionalFloats(xs []float64) []Float {
	if len(xs) == 0 {
		return nil
	}
	return floats(xs)
}
