package format

import (
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Align lines up the cells of a table's column.
type Align int

const (
	Left  Align = iota // names, units, free text
	Right              // numbers
)

// Table draws a table in JMH's look with tablewriter: no borders or
// rules, two spaces between columns, each column aligned as align says
// (a column align does not name is left-aligned), no trailing spaces.
// Widths are display widths, with "±", "≈" and the other East Asian
// ambiguous runes one column wide whatever the locale, as terminals show
// them. A line break inside a cell would break the table, so it reads
// as a space.
func Table(header []string, rows [][]string, align ...Align) string {
	var out strings.Builder
	t := tablewriter.NewTable(&out,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders:  tw.BorderNone,
			Symbols:  tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{Lines: tw.LinesNone, Separators: tw.SeparatorsNone},
		})),
		tablewriter.WithPadding(tw.Padding{Right: "  "}),
		cellOptions(align),
	)
	t.Header(oneLine(header))
	for _, row := range rows {
		if err := t.Append(oneLine(row)); err != nil {
			panic(err) // only a value that is no row fails; cells are strings
		}
	}
	if err := t.Render(); err != nil {
		panic(err)
	}
	lines := strings.SplitAfter(out.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \n")
	}
	return strings.Join(lines[:len(lines)-1], "\n") + "\n"
}

// MarkdownTable draws a GitHub-flavoured Markdown table with tablewriter:
// a delimiter row that aligns each column as align says (":---" or
// "---:"), the cells padded so that the source lines up too. Escaping the
// cells is the caller's.
func MarkdownTable(header []string, rows [][]string, align ...Align) string {
	var out strings.Builder
	t := tablewriter.NewTable(&out, tablewriter.WithRenderer(renderer.NewMarkdown()), cellOptions(align))
	t.Header(oneLine(header))
	for _, row := range rows {
		if err := t.Append(oneLine(row)); err != nil {
			panic(err)
		}
	}
	if err := t.Render(); err != nil {
		panic(err)
	}
	return out.String()
}

// cellOptions are the options both tables share: cells as given (no
// header capitalised, no spaces trimmed, nothing wrapped), aligned by
// column, widths measured the same in every locale.
func cellOptions(align []Align) tablewriter.Option {
	cols := make([]tw.Align, len(align))
	for i, a := range align {
		cols[i] = tw.AlignLeft
		if a == Right {
			cols[i] = tw.AlignRight
		}
	}
	return func(t *tablewriter.Table) {
		for _, o := range []tablewriter.Option{
			tablewriter.WithHeaderAutoFormat(tw.Off),
			tablewriter.WithHeaderAutoWrap(tw.WrapNone),
			tablewriter.WithRowAutoWrap(tw.WrapNone),
			tablewriter.WithTrimSpace(tw.Off),
			tablewriter.WithEastAsian(tw.Off),
			tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: cols}),
			tablewriter.WithRowAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: cols}),
		} {
			o(t)
		}
	}
}

// oneLine returns cells with each line break read as a space.
func oneLine(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(c)
	}
	return out
}
