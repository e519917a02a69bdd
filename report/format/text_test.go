package format

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

func TestTextIncomplete(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	var out strings.Builder
	if err := (Text{}).Render(&out, report.Build(p, forks[:3], env)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "Incomplete:") || strings.Contains(got, "log.Classic") {
		t.Errorf("incomplete report:\n%s", got)
	}
}

// TestFormatScore checks score and error cells, the awkward ones first
// as issue 19 found them: an exact zero read "≈ 0 ± 0.001" though the
// JSON says 0 ± 0, and a tiny score "≈ 10⁻⁵ ± 0.001", an error a hundred
// times the score that only rounding made.
func TestFormatScore(t *testing.T) {
	for _, tc := range []struct {
		score, err report.Float
		want       string
		wantErr    string
	}{
		{0, 0, "0", "0"}, // exact zero, as the JSON has it
		{1.234e-5, 2.1e-7, "1.23e-05", "2.10e-07"}, // was "≈ 10⁻⁵ ± 0.001"; beyond 6 decimals, an exponent
		{1.05e-5, 8.98e-5, "1.05e-05", "8.98e-05"}, // was "0.0000105 ± 0.0000898" (ops/ns)
		{1.234e-5, 1e-12, "1.23e-05", "1.00e-12"},  // an exponent needs no floor to show an error
		{1.234e-5, 3e-5, "1.23e-05", "3.00e-05"},   // a real error wider than the score still shows
		{1.234e-4, 1e-12, "0.000123", "0.000001"},  // the error's floor follows the score's decimals
		{-3.4e-4, 1e-4, "-0.000340", "0.000100"},   // a negative tiny score (DEAD_CODE)
		{1.5e-13, 2e-14, "1.50e-13", "2.00e-14"},
		{12.3456, 0.01234, "12.346", "0.012"},
		{1234567, 0.0001, "1234567.000", "0.001"}, // a tiny error still shows as one
		{12.3456, 0, "12.346", "0"},               // no spread at all is no error, not 0.001
		{0.00012, report.NaN(), "0.000120", ""},
		{0.0004, 0, "0.000400", "0"},
		{0.0005, 0, "0.001", "0"},
		{0, report.NaN(), "0", ""},
		{report.NaN(), report.NaN(), "n/a", ""},
		{1e308, 1e306, "1.00e+308", "1.00e+306"}, // was a 309-digit integer
		{-2.5e15, 1, "-2.50e+15", "1.000"},
	} {
		if got := Score(tc.score); got != tc.want {
			t.Errorf("Score(%v) = %q, want %q", tc.score, got, tc.want)
		}
		if got := Error(tc.err, tc.score); got != tc.wantErr {
			t.Errorf("Error(%v, %v) = %q, want %q", tc.err, tc.score, got, tc.wantErr)
		}
	}
}

// TestFind: each kind of output finds the formats that render it, and
// a name that is not one gets an error naming them, with the nearest
// when it looks mistyped.
func TestFind(t *testing.T) {
	for _, name := range Names[Renderer](Builtin()) {
		if r, err := Find[Renderer](Builtin(), name); err != nil || r == nil {
			t.Errorf("Find(%q) = %v, %v", name, r, err)
		}
	}
	for _, c := range []struct {
		find      func(string) error
		name, err string
	}{
		{func(n string) error { _, err := Find[Renderer](Builtin(), n); return err }, "yaml",
			`unknown format "yaml" (valid: csv, gobench, jmh, json, markdown, text)`},
		{func(n string) error { _, err := Find[Renderer](Builtin(), n); return err }, "makdown",
			`unknown format "makdown" (valid: csv, gobench, jmh, json, markdown, text); did you mean "markdown"?`},
		{func(n string) error { _, err := Find[ComparisonRenderer](Builtin(), n); return err }, "csv",
			`unknown format "csv" (valid: json, markdown, text)`},
		{func(n string) error { _, err := Find[HistoryRenderer](Builtin(), n); return err }, "txt",
			`unknown format "txt" (valid: json, markdown, text); did you mean "text"?`},
	} {
		if err := c.find(c.name); err == nil || err.Error() != c.err {
			t.Errorf("Find(%q) error = %v, want %s", c.name, err, c.err)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second: "1 s", 500 * time.Millisecond: "500 ms", 10 * time.Minute: "10 min",
		1500 * time.Millisecond: "1500 ms", 2 * time.Hour: "2 hr", 100 * time.Microsecond: "100 us", 7: "7 ns", 0: "0 ns",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestTextEdgeScoresGolden renders the scores three decimals misread:
// an exact zero was "≈ 0 ± 0.001" and 1.24e-8 s/op "≈ 10⁻⁸ ± 0.001"
// (issue 19); the table now shows "0 ± 0" and three significant digits
// with an error in the same decimals.
func TestTextEdgeScoresGolden(t *testing.T) {
	p, forks, env := reporttest.EdgeScores()
	var out strings.Builder
	if err := (Text{}).Render(&out, report.Build(p, forks, env)); err != nil {
		t.Fatal(err)
	}
	reporttest.Golden(t, "edges.golden", out.String())
}

// TestErrorInWords: an error as wide as the score or wider reads in
// words in the text and markdown tables instead of "3.828 ± 25.163":
// the forks' range when three or more disagree, "(too few forks)" when
// their spread is small and the interval is wide for want of forks; a
// narrower error, a secondary metric and the CSV keep the number.
func TestErrorInWords(t *testing.T) {
	metric := func(score, err float64, means ...float64) *report.Metric {
		m := &report.Metric{Score: report.Float(score), ScoreError: report.Float(err), ScoreUnit: "ns/op", Count: 3 * len(means),
			Variance: &report.Variance{Forks: len(means)}}
		for _, v := range means {
			m.Variance.ForkMeans = append(m.Variance.ForkMeans, report.Float(v))
		}
		return m
	}
	for _, tc := range []struct {
		name string
		m    *report.Metric
		want string
	}{
		{"forks disagree", metric(3.828, 25.163, 1.43, 1.45, 8.6), "(forks disagree: 1.430–8.600)"},
		{"two forks", metric(12, 636.619, 11.9, 12.1), "± 636.619 (too few forks)"},
		{"three forks that agree, wide anyway", metric(12, 13, 11.99, 12, 12.01), "± 13.000 (too few forks)"},
		{"no fork means", &report.Metric{Score: 2, ScoreError: 3}, "± 3.000 (too few forks)"},
		{"narrower than the score", metric(3.828, 0.5, 3.7, 3.8, 3.9), "± 0.500"},
		{"no error", &report.Metric{Score: 2, ScoreError: report.NaN()}, ""},
	} {
		if got := ErrorWords(tc.m); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
	var text, md, csv strings.Builder
	for _, c := range []struct {
		f   Renderer
		out *strings.Builder
	}{{Text{}, &text}, {Markdown{}, &md}, {CSV{}, &csv}} {
		if err := c.f.Render(c.out, rep); err != nil {
			t.Fatal(err)
		}
	}
	// the fixture's counter.Inc1 avgt has two forks: 12 ± 636.619
	if !strings.Contains(text.String(), "12.000  ± 636.619 (too few forks)  ns/op [1,2]") ||
		!strings.Contains(md.String(), "± 636.619 (too few forks)") ||
		!strings.Contains(text.String(), "3.000                  ± 636.619  allocs/op") ||
		strings.Contains(csv.String(), "too few") {
		t.Errorf("the tables do not say it in words, or the CSV does:\n%s\n%s\n%s", text.String(), md.String(), csv.String())
	}
}

// TestFootnotesAreShort: a table's footnote is the first clause of its
// reason, without the parenthesized evidence, within MaxNote characters, with a line saying where the rest is;
// Text{Verbose: true} writes it whole.
func TestFootnotesAreShort(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
	rep.Runs[3].Error = "exit status 2: " + strings.Repeat("panic: a failure that goes on and on ", 30)
	_, notes := Rows(rep)
	if len(notes) == 0 {
		t.Fatal("no footnotes")
	}
	long := 0
	for _, n := range notes {
		if l := utf8.RuneCountInString(n.String()); l > MaxNote {
			t.Errorf("note %d: %d characters, want at most %d: %s", n.N, l, MaxNote, n)
		}
		if !strings.HasPrefix(withoutAsides(n.Full), strings.TrimSuffix(n.Reason, "…")) || strings.Contains(n.Reason, "(") && n.Diagnostic {
			t.Errorf("note %d: %q is not the start of %q without its parenthesized asides", n.N, n.Reason, n.Full)
		}
		if n.Shortened() {
			long++
		}
	}
	if long == 0 {
		t.Fatal("no note was shortened")
	}
	var short, full strings.Builder
	if err := (Text{}).Render(&short, rep); err != nil {
		t.Fatal(err)
	}
	if err := (Text{Verbose: true}).Render(&full, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(short.String(), ShortenedNotes) || strings.Count(short.String(), "goes on and on") >= 30 {
		t.Errorf("the table's notes are not cut short, or do not say so:\n%s", short.String())
	}
	if strings.Contains(full.String(), ShortenedNotes) || strings.Count(full.String(), "goes on and on") != 30 || !strings.Contains(full.String(), "run more forks (about 5 would make it narrower than the score)") {
		t.Errorf("Text{Verbose: true} does not write the notes whole:\n%s", full.String())
	}
}

// TestGroupTables: the tables show a group's row, then its members'
// rows, each with its threads.
func TestGroupTables(t *testing.T) {
	rep := report.Build(reporttest.Group(300))
	for _, f := range []string{"text", "markdown", "csv"} {
		reporttest.Golden(t, "group."+f+".golden", render(t, f, rep))
	}
}
