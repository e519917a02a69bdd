package report

import (
	"fmt"
	"strconv"
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
	Note                      int   // 1-based footnote of a failed run, 0 otherwise
	Marks                     []int // footnotes of the run's diagnostics, on its primary row
}

// Unit is the row's unit: the metric's, or the mode's for a failed run.
func (r row) Unit() string {
	if r.Metric != nil {
		return r.Metric.ScoreUnit
	}
	return Unit(r.Run.Mode, r.Run.Settings.TimeUnit)
}

// tableHeader is the header of the result table: Benchmark, a "(name)"
// column per parameter, Mode, Cnt, Score, Error, Units.
func tableHeader(params []string) []string {
	header := []string{"Benchmark"}
	for _, n := range params {
		header = append(header, "("+n+")")
	}
	return append(header, "Mode", "Cnt", "Score", "Error", "Units")
}

// cells formats the row in tableHeader's columns, like the text table:
// three decimals, the error as "± 0.123", "FAILED [n]" for a failed run.
func (r row) cells(params []string) []string {
	cells := []string{r.Name}
	for _, n := range params {
		cells = append(cells, r.Run.Params[n])
	}
	cells = append(cells, r.Run.Mode)
	switch m := r.Metric; {
	case m == nil:
		cells = append(cells, "", fmt.Sprintf("FAILED [%d]", r.Note), "")
	case r.SampleQuantile:
		cells = append(cells, "", formatScore(m.Score), errorCell(m.ScoreError))
	default:
		cells = append(cells, strconv.Itoa(m.Count), formatScore(m.Score), errorCell(m.ScoreError))
	}
	unit := r.Unit()
	if len(r.Marks) > 0 {
		marks := make([]string, len(r.Marks))
		for i, m := range r.Marks {
			marks[i] = strconv.Itoa(m)
		}
		unit += " [" + strings.Join(marks, ",") + "]"
	}
	return append(cells, unit)
}

// diagnosticLine is a diagnostic in one line: "warning CODE: message".
func diagnosticLine(d Diagnostic) string {
	return d.Severity + " " + d.Code + ": " + oneLine(d.Message)
}

// checkDiagnostics are the diagnostics of the environment check, if any.
func checkDiagnostics(r *Report) []Diagnostic {
	if r.Env.Check == nil {
		return nil
	}
	return r.Env.Check.Diagnostics
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
// metric followed by its secondary metrics by name — and the footnotes:
// a failed run's reason, and each diagnostic of a run, marked after the
// unit of its primary row, as in the text table.
func resultRows(r *Report) ([]row, []note) {
	var rows []row
	var notes []note
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.Failed() || run.Primary == nil {
			n := note{N: len(notes) + 1, Label: runLabel(run), Reason: oneLine(run.Error)}
			notes = append(notes, n)
			rows = append(rows, row{Run: run, Name: run.DisplayName(), Note: n.N})
			continue
		}
		primary := row{Run: run, Name: run.DisplayName(), Metric: run.Primary}
		for _, d := range run.Diagnostics {
			n := note{N: len(notes) + 1, Label: runLabel(run), Reason: diagnosticLine(d)}
			notes = append(notes, n)
			primary.Marks = append(primary.Marks, n.N)
		}
		rows = append(rows, primary)
		for _, name := range sortedKeys(run.SecondaryMetrics) {
			m := run.SecondaryMetrics[name]
			rows = append(rows, row{Run: run, Name: run.DisplayName() + ":" + name, Metric: &m, Secondary: true,
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
