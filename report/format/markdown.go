package format

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/history"
)

// Markdown writes a GitHub-flavoured Markdown table fit for a
// pull-request comment: a one-line environment summary, then the columns
// of the text table (Benchmark, one per parameter, Mode, Cnt, Score,
// Error, Units) with the error as "± 0.123". A failed run reads
// "FAILED [n]" with the reason in a numbered note under the table; a
// run's diagnostics are numbered notes too, marked after its unit, and
// the environment check's diagnostics follow.
// Pipes and other Markdown in names and reasons are escaped.
type Markdown struct{}

// Render writes the Markdown table of r to w.
func (Markdown) Render(w io.Writer, r *report.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n\n", mdEscape(r.Suite), mdEscape(envLine(r.Env)))
	names := ParamNames(r.Runs)
	header := Header(names)
	align := make([]Align, len(header))
	for i, h := range header {
		if i > 0 && h != "Mode" && h != "Units" {
			align[i] = Right
		}
		header[i] = mdEscape(h)
	}
	rows, notes := Rows(r)
	var cellRows [][]string
	for _, row := range rows {
		cells := row.Cells(names)
		for i := range cells {
			cells[i] = mdEscape(cells[i])
		}
		if !row.Secondary {
			// a pipe ends the cell even inside a code span unless escaped
			cells[0] = "`" + termsafe.Line(strings.NewReplacer("`", "'", "|", `\|`, "\n", " ").Replace(row.Name)) + "`"
		}
		if row.Metric == nil {
			cells[len(names)+3] = fmt.Sprintf("**%s** [%d]", NoScoreLabel(row.Run), row.Note)
		}
		cellRows = append(cellRows, cells)
	}
	b.WriteString(MarkdownTable(header, cellRows, align...))
	for i, c := range report.Fits(r.Runs) {
		if i == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "_Complexity:_ %s  \n", mdEscape(ComplexityLine(&c)))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		shortened := false
		for _, n := range notes {
			fmt.Fprintf(&b, "%s  \n", mdEscape(n.String()))
			shortened = shortened || n.Shortened()
		}
		if shortened {
			fmt.Fprintf(&b, "%s  \n", mdEscape(ShortenedNotes))
		}
	}
	if diags := CheckDiagnostics(r); len(diags) > 0 {
		b.WriteString("\nEnvironment:\n\n")
		for _, d := range diags {
			fmt.Fprintf(&b, "- %s\n", mdEscape(DiagnosticLine(d)))
		}
	}
	if !r.Complete {
		b.WriteString("\n_Incomplete: the batch stopped before every planned run had run._\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscaper escapes what would end a table cell or start Markdown
// formatting inside one; newlines would end the row.
var mdEscaper = strings.NewReplacer(
	"|", `\|`, `\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "\n", " ", "\r", " ")

func mdEscape(s string) string { return termsafe.String(mdEscaper.Replace(s)) }

// Comparison writes c as a Markdown table for a pull-request comment,
// with the runs of one side only, the notes and the counts under it.
func (Markdown) Comparison(w io.Writer, c *compare.Result) error { return writeComparison(w, c, true) }

// AB writes ab's comparison, then both builds' tables, each under a
// heading.
func (m Markdown) AB(w io.Writer, c *compare.Result, base, next *report.Report) error {
	return writeAB(w, m, "\n### %s\n\n", c, base, next)
}

// History writes which series regressed, then a table of every series:
// its last value, trend and change points.
func (Markdown) History(w io.Writer, h *history.History) error {
	bw := bufio.NewWriter(w)
	historyMarkdown(bw, h)
	return bw.Flush()
}
