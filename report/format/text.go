package format

import (
	"bufio"
	"io"
	"strings"

	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/history"
)

// Text writes JMH's result table: one row per run and one per secondary
// metric ("name:p0.50"), a "(param)" column per parameter name, Score
// and Error with three decimals. Failed runs read FAILED with a numbered
// footnote under the table giving the reason; each diagnostic of a run
// gets a numbered footnote too, marked after the unit of the run's row
// ("ns/op [2]"), and the environment check's warnings follow the
// footnotes (its info diagnostics are in the run log and the JSON). A run
// that the plan selected a second time alike (from another entry or
// spec) reads "name #2" (report.Run.DisplayName), as in every table.
//
// A footnote is cut to its first clause within MaxNote characters, with a
// line under them saying where the rest is; Verbose writes them whole.
type Text struct{ Verbose bool }

// ShortenedNotes follows footnotes that a table cut short.
const ShortenedNotes = "(… notes cut short: the JSON report has each in full, and run --verbose prints them whole)"

// Render writes the table of r to w.
func (t Text) Render(w io.Writer, r *report.Report) error {
	names := ParamNames(r.Runs)
	rows, notes := Rows(r)
	cells := make([][]string, len(rows))
	for i, row := range rows {
		cells[i] = row.Cells(names)
		for j := range cells[i] {
			cells[i][j] = termsafe.Line(cells[i][j])
		}
	}
	header := Header(names)
	align := make([]Align, len(header)) // Benchmark and Units left, the rest right, as JMH
	for i := 1; i < len(header)-1; i++ {
		align[i] = Right
	}
	var out strings.Builder
	for j := range header {
		header[j] = termsafe.Line(header[j])
	}
	out.WriteString(TextTable(header, cells, align...))
	for _, c := range report.Fits(r.Runs) {
		out.WriteString(termsafe.String("Complexity: "+ComplexityLine(&c)) + "\n")
	}
	if len(notes) > 0 {
		out.WriteString("\n")
		shortened := false
		for _, n := range notes {
			line := n.String()
			if t.Verbose {
				line = n.FullString()
			}
			shortened = shortened || n.Shortened() && !t.Verbose
			if n.Diagnostic {
				line = Wrap(line, "    ", 100)
			}
			out.WriteString(termsafe.String(line) + "\n")
		}
		if shortened {
			out.WriteString(ShortenedNotes + "\n")
		}
	}
	if c := r.Env.Check; c != nil {
		var warnings []string
		for _, d := range c.Diagnostics {
			if d.Severity == "warning" {
				warnings = append(warnings, termsafe.String(Wrap("  "+d.Code+": "+OneLine(d.Message), "    ", 100)))
			}
		}
		if len(warnings) > 0 {
			out.WriteString("\nEnvironment warnings:\n" + strings.Join(warnings, "\n") + "\n")
		}
	}
	if !r.Complete {
		out.WriteString("\nIncomplete: the batch stopped before every planned run had run.\n")
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// Comparison writes c as an aligned table for a terminal, with the
// runs of one side only, the notes and the counts under it.
func (Text) Comparison(w io.Writer, c *compare.Result) error { return writeComparison(w, c, false) }

// AB writes ab's comparison, then both builds' tables.
func (t Text) AB(w io.Writer, c *compare.Result, base, next *report.Report) error {
	return writeAB(w, t, "\n%s:\n\n", c, base, next)
}

// History writes per series its last value, trend and change points,
// and which series regressed.
func (Text) History(w io.Writer, h *history.History) error {
	bw := bufio.NewWriter(w)
	historyText(bw, h)
	return bw.Flush()
}
