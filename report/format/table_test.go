package format

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// TestTableAlignsByDisplayWidth: a wide rune takes two columns, a
// combining mark none, "±" one; a line break reads as a space; no line
// ends in spaces; columns not named in align are left-aligned.
func TestTableAlignsByDisplayWidth(t *testing.T) {
	got := TextTable([]string{"Benchmark", "(n)", "Score", "Units"}, [][]string{
		{"日本", "1", "± 1.5", "ns/op"},
		{"e\u0301x", "10", "2.000", "a\nb"},
		{"long.name", "", "", "us/op"},
	}, Left, Right, Right)
	want := "" +
		"Benchmark  (n)  Score  Units\n" +
		"日本         1  ± 1.5  ns/op\n" +
		"e\u0301x          10  2.000  a b\n" +
		"long.name              us/op\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Table (-want +got):\n%s", diff)
	}
}

// TestTableWidthsIgnoreTheLocale: in an East Asian locale tablewriter
// would count "±" (an ambiguous-width rune) two columns wide, and the
// error column would drift from the one a terminal shows; Table counts
// it one column in every locale.
func TestTableWidthsIgnoreTheLocale(t *testing.T) {
	defer twwidth.SetEastAsian(twwidth.IsEastAsian())
	twwidth.SetEastAsian(true)
	got := TextTable([]string{"Error", "Units"}, [][]string{{"± 1.5", "ns/op"}, {"12.25", "ns/op"}}, Right)
	want := "Error  Units\n± 1.5  ns/op\n12.25  ns/op\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Table with an East Asian locale (-want +got):\n%s", diff)
	}
}

// TestMarkdownTable: the delimiter row aligns each column, the cells are
// padded so that the source lines up, and cells are written as given.
func TestMarkdownTable(t *testing.T) {
	got := MarkdownTable([]string{"Benchmark", "Score"}, [][]string{{"`a\\|b`", "1.000"}, {"long.name", "12.500"}}, Left, Right)
	want := "" +
		"| Benchmark |  Score |\n" +
		"|:----------|-------:|\n" +
		"| `a\\|b`    |  1.000 |\n" +
		"| long.name | 12.500 |\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MarkdownTable (-want +got):\n%s", diff)
	}
}
