package report

import (
	"strings"
	"testing"
)

func TestTextGolden(t *testing.T) {
	p, forks, env := fixture()
	var out strings.Builder
	if err := (TextRenderer{}).Render(&out, Build(p, forks, env)); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.golden", out.String())
}

func TestTextIncomplete(t *testing.T) {
	p, forks, env := fixture()
	var out strings.Builder
	if err := (TextRenderer{}).Render(&out, Build(p, forks[:3], env)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "Incomplete:") || strings.Contains(got, "log.Classic") {
		t.Errorf("incomplete report:\n%s", got)
	}
}

func TestFormatScore(t *testing.T) {
	for _, tc := range []struct {
		score, err Float
		want       string
		wantErr    string
	}{
		{12.3456, 0.01234, "12.346", "0.012"},
		{1234567, 0.0001, "1234567.000", "0.001"}, // a tiny error still shows as one
		{0.00012, NaN(), "≈ 10⁻⁴", ""},
		{0.0004, 0, "≈ 10⁻³", "0.001"},
		{0.0005, 0, "0.001", "0.001"},
		{0, NaN(), "≈ 0", ""},
		{NaN(), NaN(), "n/a", ""},
	} {
		if got := formatScore(tc.score); got != tc.want {
			t.Errorf("formatScore(%v) = %q, want %q", tc.score, got, tc.want)
		}
		if got := formatError(tc.err); got != tc.wantErr {
			t.Errorf("formatError(%v) = %q, want %q", tc.err, got, tc.wantErr)
		}
	}
}

func TestNewRenderer(t *testing.T) {
	for _, format := range Formats() {
		if r, err := NewRenderer(format); err != nil || r == nil {
			t.Errorf("NewRenderer(%q) = %v, %v", format, r, err)
		}
	}
	_, err := NewRenderer("xml")
	if err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "csv, gobench, html, jmh, json, markdown, text") {
		t.Errorf("NewRenderer(xml) error = %v, want one naming the valid formats", err)
	}
}
