package format

import (
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// The aligned tables of the benchspec program are drawn by tablewriter:
// JMH's borderless look for a terminal (TextTable, also for the plan and
// the cache), and Markdown.

// Align lines up the cells of a table's column.
type Align int

const (
	Left  Align = iota // names, units, free text
	Right              // numbers
)

// TextTable draws a table in JMH's look with tablewriter: no borders or
// rules, two spaces between columns, each column aligned as align says
// (a column align does not name is left-aligned), no trailing spaces.
// Widths are display widths, with "±", "≈" and the other East Asian
// ambiguous runes one column wide whatever the locale, as terminals show
// them. A line break inside a cell would break the table, so it reads
// as a space.
func TextTable(header []string, rows [][]string, align ...Align) string {
	out := drawTable(header, rows, align, renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleNone),
		Settings: tw.Settings{Lines: tw.LinesNone, Separators: tw.SeparatorsNone},
	}), tablewriter.WithPadding(tw.Padding{Right: "  "}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// MarkdownTable draws a GitHub-flavoured Markdown table with tablewriter:
// a delimiter row that aligns each column as align says (":---" or
// "---:"), the cells padded so that the source lines up too. Escaping the
// cells is the caller's.
func MarkdownTable(header []string, rows [][]string, align ...Align) string {
	return drawTable(header, rows, align, renderer.NewMarkdown())
}

// drawTable renders the cells as given (no header capitalised, no spaces
// trimmed, nothing wrapped; a line break reads as a space), aligned by
// column, widths measured the same in every locale.
func drawTable(header []string, rows [][]string, align []Align, r tw.Renderer, opts ...tablewriter.Option) string {
	cols := make([]tw.Align, len(align))
	for i, a := range align {
		cols[i] = tw.AlignLeft
		if a == Right {
			cols[i] = tw.AlignRight
		}
	}
	var out strings.Builder
	t := tablewriter.NewTable(&out, append([]tablewriter.Option{tablewriter.WithRenderer(r),
		tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithTrimSpace(tw.Off), tablewriter.WithEastAsian(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: cols}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: cols}),
	}, opts...)...)
	oneLine := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
	for i, row := range append([][]string{header}, rows...) {
		cells := make([]string, len(row))
		for j, c := range row {
			cells[j] = oneLine.Replace(c)
		}
		if i == 0 {
			t.Header(cells)
		} else if err := t.Append(cells); err != nil {
			panic(err) // only a value that is no row fails; cells are strings
		}
	}
	if err := t.Render(); err != nil {
		panic(err)
	}
	return out.String()
}
