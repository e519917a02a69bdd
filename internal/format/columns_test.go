package format

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The columns are aligned by display width: a wide rune takes two
// columns, a combining mark none, "±" one; a line break reads as a space.
func TestColumns(t *testing.T) {
	got := columns([]string{"Benchmark", "(n)", "Score", "Units"}, [][]string{
		{"日本", "1", "± 1.5", "ns/op"},
		{"e\u0301x", "10", "2.000", "a\nb"},
		{"long.name", "", "", "us/op"},
	})
	want := "" +
		"Benchmark  (n)  Score  Units\n" +
		"日本         1  ± 1.5  ns/op\n" +
		"e\u0301x          10  2.000  a b\n" +
		"long.name              us/op\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}
