package format

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/benchspec/benchspec/internal/reporttest"
	"github.com/benchspec/benchspec/report"
)

func TestTextGolden(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	var out strings.Builder
	if err := (Text{}).Render(&out, report.Build(p, forks, env)); err != nil {
		t.Fatal(err)
	}
	reporttest.Golden(t, "table.golden", out.String())
}

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
	} {
		if got := Score(tc.score); got != tc.want {
			t.Errorf("Score(%v) = %q, want %q", tc.score, got, tc.want)
		}
		if got := Error(tc.err, tc.score); got != tc.wantErr {
			t.Errorf("Error(%v, %v) = %q, want %q", tc.err, tc.score, got, tc.wantErr)
		}
	}
}

func TestNew(t *testing.T) {
	for _, format := range Names() {
		if r, err := New(format); err != nil || r == nil {
			t.Errorf("New(%q) = %v, %v", format, r, err)
		}
	}
	_, err := New("xml")
	if err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "csv, gobench, jmh, json, markdown, text") {
		t.Errorf("New(xml) error = %v, want one naming the valid formats", err)
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

// TestFootnotesAreShort: a table's footnote is the first clause of its
// reason within MaxNote characters, with a line saying where the rest is;
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
		if !strings.HasPrefix(n.Full, strings.TrimSuffix(n.Reason, "…")) {
			t.Errorf("note %d: %q is not the start of %q", n.N, n.Reason, n.Full)
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
