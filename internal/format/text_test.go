package format

import (
	"strings"
	"testing"
	"time"

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

func TestFormatScore(t *testing.T) {
	for _, tc := range []struct {
		score, err report.Float
		want       string
		wantErr    string
	}{
		{12.3456, 0.01234, "12.346", "0.012"},
		{1234567, 0.0001, "1234567.000", "0.001"}, // a tiny error still shows as one
		{0.00012, report.NaN(), "≈ 10⁻⁴", ""},
		{0.0004, 0, "≈ 10⁻³", "0.001"},
		{0.0005, 0, "0.001", "0.001"},
		{0, report.NaN(), "≈ 0", ""},
		{report.NaN(), report.NaN(), "n/a", ""},
	} {
		if got := Score(tc.score); got != tc.want {
			t.Errorf("Score(%v) = %q, want %q", tc.score, got, tc.want)
		}
		if got := Error(tc.err); got != tc.wantErr {
			t.Errorf("Error(%v) = %q, want %q", tc.err, got, tc.wantErr)
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
