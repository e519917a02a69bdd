package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

// render renders the fixture's report in format.
func render(t *testing.T, format string, rep *report.Report) string {
	t.Helper()
	r, err := Find[Renderer](Builtin(), format)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, rep); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return buf.String()
}

func TestMarkdownEscapes(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
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
