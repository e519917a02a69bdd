package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/benchspec/benchspec/spec"
)

// TextRenderer writes JMH's result table: one row per run and one per
// secondary metric ("name:p0.50"), a "(param)" column per parameter name,
// Score and Error with three decimals. Failed runs read FAILED with a
// numbered footnote under the table giving the reason; each diagnostic
// of a run gets a numbered footnote too, marked after the unit of the
// run's row ("ns/op [2]"), and the environment check's warnings follow
// the footnotes (its info diagnostics are in the run log and the JSON).
// A run that the plan selected a second time alike (from another entry
// or spec) reads "name #2" (Run.DisplayName), as in every table.
type TextRenderer struct{}

// Render writes the table of r to w.
func (TextRenderer) Render(w io.Writer, r *Report) error {
	names := paramNames(r.Runs)
	header := []string{"Benchmark"}
	for _, n := range names {
		header = append(header, "("+n+")")
	}
	header = append(header, "Mode", "Cnt", "Score", "Error", "Units")

	var rows [][]string
	var notes []string
	for i := range r.Runs {
		run := &r.Runs[i]
		row := func(name, cnt, score, err, unit string) {
			cells := []string{name}
			for _, n := range names {
				cells = append(cells, run.Params[n])
			}
			rows = append(rows, append(cells, run.Mode, cnt, score, err, unit))
		}
		unit := Unit(run.Mode, run.Settings.TimeUnit)
		if run.Failed() || run.Primary == nil {
			notes = append(notes, fmt.Sprintf("[%d] %s: %s", len(notes)+1, runLabel(run), oneLine(run.Error)))
			row(run.DisplayName(), "", fmt.Sprintf("FAILED [%d]", len(notes)), "", unit)
			continue
		}
		p := run.Primary
		row(run.DisplayName(), strconv.Itoa(p.Count), formatScore(p.Score), errorCell(p.ScoreError), p.ScoreUnit+diagNotes(run, &notes))
		for _, name := range sortedKeys(run.SecondaryMetrics) {
			m := run.SecondaryMetrics[name]
			cnt := strconv.Itoa(m.Count)
			if run.Mode == spec.ModeSampleTime && isPercentileName(name) {
				cnt = ""
			}
			row(run.DisplayName()+":"+name, cnt, formatScore(m.Score), errorCell(m.ScoreError), m.ScoreUnit)
		}
	}

	var buf bytes.Buffer
	if err := table(&buf, header, rows); err != nil {
		return fmt.Errorf("report: rendering table: %w", err)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(notes) > 0 {
		out.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
	if c := r.Env.Check; c != nil {
		var warnings []string
		for _, d := range c.Diagnostics {
			if d.Severity == "warning" {
				warnings = append(warnings, wrap("  "+d.Code+": "+oneLine(d.Message), "    ", 100))
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

// table renders a borderless, JMH-like table: text columns left-aligned,
// numbers right-aligned, two spaces between columns.
func table(w io.Writer, header []string, rows [][]string) error {
	align := make(tw.Alignment, len(header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	align[0], align[len(align)-1] = tw.AlignLeft, tw.AlignLeft
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders:  tw.BorderNone,
			Symbols:  tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{Separators: tw.SeparatorsNone, Lines: tw.LinesNone},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithTrimSpace(tw.Off),
		tablewriter.WithPadding(tw.Padding{Left: "", Right: "  ", Overwrite: true}),
		tablewriter.WithAlignment(align),
	)
	t.Header(header)
	for _, row := range rows {
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

// diagNotes adds a footnote per diagnostic of run to notes and returns
// the marks for the run's row: " [2,3]", or "" without diagnostics.
func diagNotes(run *Run, notes *[]string) string {
	var marks []string
	for _, d := range run.Diagnostics {
		n := len(*notes) + 1
		*notes = append(*notes, wrap(fmt.Sprintf("[%d] %s: %s %s: %s", n, runLabel(run), d.Severity, d.Code, oneLine(d.Message)), "    ", 100))
		marks = append(marks, strconv.Itoa(n))
	}
	if len(marks) == 0 {
		return ""
	}
	return " [" + strings.Join(marks, ",") + "]"
}

// wrap breaks s into lines of at most width columns at spaces (a longer
// word stays whole), indenting every line after the first.
func wrap(s, indent string, width int) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			// the first word starts the first line
		case col+1+n > width && !strings.HasPrefix(word, "%"): // "10 %" stays whole
			b.WriteString("\n" + indent)
			col = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		if i == 0 {
			b.WriteString(strings.Repeat(" ", len(s)-len(strings.TrimLeft(s, " "))))
			col = len(s) - len(strings.TrimLeft(s, " "))
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
}

func errorCell(e Float) string {
	if s := formatError(e); s != "" {
		return "± " + s
	}
	return ""
}

// paramNames is the union of the runs' parameter names, sorted.
func paramNames(runs []Run) []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range runs {
		for n := range r.Params {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// runLabel names a run in messages: "name (size = 10) avgt".
func runLabel(r *Run) string {
	if p := paramString(r.Params); p != "" {
		return r.DisplayName() + " " + p + " " + r.Mode
	}
	return r.DisplayName() + " " + r.Mode
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
