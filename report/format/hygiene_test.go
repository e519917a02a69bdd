package format

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

// TestCSVCellsCannotBeFormulas: a text cell that a spreadsheet would
// read as a formula (=, +, -, @ first) gets a leading ', as OWASP
// advises; numbers, negative ones included, stay numbers.
func TestCSVCellsCannotBeFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")", "+1+1": "'+1+1", "-2+3": "'-2+3", "@SUM(A1)": "'@SUM(A1)",
		"\tx": "'\tx", "-Inf": "'-Inf", "+NaN": "'+NaN",
		"-1.5": "-1.5", "+3": "+3", "-1e-09": "-1e-09", "sqrt.Sunk": "sqrt.Sunk", "": "",
	} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
	rep.Runs[0].Params["size"] = "=cmd|' /C calc'!A0"
	rep.Runs[3].Error = "@evil"
	recs, err := csv.NewReader(strings.NewReader(render(t, "csv", rep))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
				t.Errorf("CSV cell %q starts a formula", cell)
			}
		}
	}
}

// TestTextTableIsEscaped: a run's name, param or failure carrying a
// terminal escape or a carriage return reaches the text table (and the
// markdown one) as a visible escape, never raw.
func TestTextTableIsEscaped(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
	rep.Runs[0].Params["size"] = "1\x1b[31m0"
	rep.Runs[3].Error = "boom\r\x1b]0;owned\x07"
	rep.Runs[1].Benchmark = "counter\rInc"
	for _, f := range []string{"markdown"} {
		if got := render(t, f, rep); strings.ContainsAny(got, "\x1b\r\x07") {
			t.Errorf("%s holds a raw control character:\n%q", f, got)
		}
	}
	got := render(t, "text", rep)
	if strings.ContainsAny(got, "\x1b\r\x07") {
		t.Errorf("text table holds a raw control character:\n%q", got)
	}
	for _, want := range []string{`1\x1b[31m0`, `\x1b]0;owned\x07`} {
		if !strings.Contains(got, want) {
			t.Errorf("text table lacks %q:\n%s", want, got)
		}
	}
}
