package report

import (
	"fmt"
	"strings"

	"github.com/benchspec/benchspec/spec"
)

// row is one line of a result table as the Markdown, CSV and HTML
// renderers show it: a run's primary metric, one of its secondary metrics,
// or a failed run.
type row struct {
	Run    *Run
	Name   string  // the benchmark, or "benchmark:metric" for a secondary metric
	Metric *Metric // nil for a failed run
	// Secondary is set for secondary metrics; SampleQuantile for sample
	// mode's percentile metrics, which have no count of their own.
	Secondary, SampleQuantile bool
	Note                      int // 1-based footnote of a failed run, 0 otherwise
}

// Unit is the row's unit: the metric's, or the mode's for a failed run.
func (r row) Unit() string {
	if r.Metric != nil {
		return r.Metric.ScoreUnit
	}
	return Unit(r.Run.Mode, r.Run.Settings.TimeUnit)
}

// note is the footnote of a failed run.
type note struct {
	N      int
	Label  string
	Reason string
}

// String formats the note like the text table's: "[1] label: reason".
func (n note) String() string { return fmt.Sprintf("[%d] %s: %s", n.N, n.Label, n.Reason) }

// resultRows returns the rows of r in run order — each run's primary
// metric followed by its secondary metrics by name — and the footnotes of
// the failed runs.
func resultRows(r *Report) ([]row, []note) {
	var rows []row
	var notes []note
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.Failed() || run.Primary == nil {
			n := note{N: len(notes) + 1, Label: runLabel(run), Reason: oneLine(run.Error)}
			notes = append(notes, n)
			rows = append(rows, row{Run: run, Name: run.Benchmark, Note: n.N})
			continue
		}
		rows = append(rows, row{Run: run, Name: run.Benchmark, Metric: run.Primary})
		for _, name := range sortedKeys(run.SecondaryMetrics) {
			m := run.SecondaryMetrics[name]
			rows = append(rows, row{Run: run, Name: run.Benchmark + ":" + name, Metric: &m, Secondary: true,
				SampleQuantile: run.Mode == spec.ModeSampleTime && isPercentileName(name)})
		}
	}
	return rows, notes
}

// envLine summarises where the numbers were measured in one line:
// "go1.26.8 linux/amd64, Intel(R) Xeon(R) …, 8 CPUs, GOMAXPROCS 8".
func envLine(e Env) string {
	parts := []string{e.GoVersion + " " + e.GOOS + "/" + e.GOARCH}
	if e.CPU != "" {
		parts = append(parts, e.CPU)
	}
	parts = append(parts, fmt.Sprintf("%d CPUs, GOMAXPROCS %d", e.NumCPU, e.GOMAXPROCS))
	return strings.Join(parts, ", ")
}
