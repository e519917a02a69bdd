package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// render renders the fixture's report in format.
func render(t *testing.T, format string, rep *Report) string {
	t.Helper()
	r, err := NewRenderer(format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, rep); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return buf.String()
}

var svgElement = regexp.MustCompile(`(?s)<svg .*?</svg>`)

// TestGolden checks every rendered format of the fixture against its
// golden file. The HTML's charts are replaced by a placeholder: they are
// checked by TestHTML, and their exact coordinates are gonum/plot's.
func TestGolden(t *testing.T) {
	p, forks, env := fixture()
	rep := Build(p, forks, env)
	for _, tc := range []struct{ format, golden string }{
		{"markdown", "report.md.golden"},
		{"csv", "report.csv.golden"},
		{"jmh", "jmh.json.golden"},
		{"gobench", "gobench.txt.golden"},
		{"html", "report.html.golden"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			got := render(t, tc.format, rep)
			if tc.format == "html" {
				got = svgElement.ReplaceAllString(got, "<svg>…</svg>")
			}
			golden(t, tc.golden, got)
		})
	}
}

func TestMarkdownEscapes(t *testing.T) {
	p, forks, env := fixture()
	rep := Build(p, forks, env)
	rep.Runs[3].Error = "a | b\nc_d"
	rep.Runs[0].Params["size"] = "1|0"
	got := render(t, "markdown", rep)
	for _, want := range []string{`a \| b c\_d`, `1\|0`} {
		if !strings.Contains(got, want) {
			t.Errorf("markdown lacks %q:\n%s", want, got)
		}
	}
	rep.Runs[3].Benchmark = "sqrt|Crash"
	got = render(t, "markdown", rep)
	cells := func(line string) int { return strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1 }
	for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
		if strings.HasPrefix(line, "| ") && cells(line) != 7 {
			t.Errorf("row with the wrong number of cells: %s", line)
		}
	}
}
