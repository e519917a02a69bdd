package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MarkdownRenderer writes a GitHub-flavoured Markdown table fit for a
// pull-request comment: a one-line environment summary, then the columns
// of the text table (Benchmark, one per parameter, Mode, Cnt, Score,
// Error, Units) with the error as "± 0.123". A failed run reads
// "FAILED [n]" with the reason in a numbered note under the table.
// Pipes and other Markdown in names and reasons are escaped.
type MarkdownRenderer struct{}

// Render writes the Markdown table of r to w.
func (MarkdownRenderer) Render(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n\n", mdEscape(r.Suite), mdEscape(envLine(r.Env)))
	names := paramNames(r.Runs)
	header := []string{"Benchmark"}
	align := []string{":---"}
	for _, n := range names {
		header = append(header, mdEscape("("+n+")"))
		align = append(align, "---:")
	}
	header = append(header, "Mode", "Cnt", "Score", "Error", "Units")
	align = append(align, ":---", "---:", "---:", "---:", ":---")
	mdRow(&b, header)
	mdRow(&b, align)

	rows, notes := resultRows(r)
	for _, row := range rows {
		cells := []string{mdEscape(row.Name)}
		if !row.Secondary {
			cells[0] = "`" + strings.ReplaceAll(row.Name, "`", "'") + "`"
		}
		for _, n := range names {
			cells = append(cells, mdEscape(row.Run.Params[n]))
		}
		cells = append(cells, row.Run.Mode)
		switch m := row.Metric; {
		case m == nil:
			cells = append(cells, "", fmt.Sprintf("**FAILED** [%d]", row.Note), "")
		default:
			cnt := strconv.Itoa(m.Count)
			if row.SampleQuantile {
				cnt = ""
			}
			cells = append(cells, cnt, formatScore(m.Score), errorCell(m.ScoreError))
		}
		mdRow(&b, append(cells, mdEscape(row.Unit())))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "%s  \n", mdEscape(n.String()))
		}
	}
	if !r.Complete {
		b.WriteString("\n_Incomplete: the batch stopped before every planned run had run._\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdRow(b *strings.Builder, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

// mdEscaper escapes what would end a table cell or start Markdown
// formatting inside one; newlines would end the row.
var mdEscaper = strings.NewReplacer(
	"|", `\|`, `\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "\n", " ", "\r", " ")

func mdEscape(s string) string { return mdEscaper.Replace(s) }
