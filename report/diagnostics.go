package report

import (
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/diag"
)

// diagnose runs the trust diagnostics (package report/diag) on a run that
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

// diagnostics is ds, never nil, so that JSON has [] rather than null.
func diagnostics(ds []Diagnostic) []Diagnostic {
	if ds == nil {
		return []Diagnostic{}
	}
	return ds
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

// optionalFloats is floats, or nil for no values (omitted from JSON).
func optionalFloats(xs []float64) []Float {
	if len(xs) == 0 {
		return nil
	}
	return floats(xs)
}
