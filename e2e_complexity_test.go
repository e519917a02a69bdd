package benchspec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec"
)

func init() {
	// n² steps of a dependency chain, each op's chain continuing the
	// last, so that no size overlaps its steps more than another.
	benchspec.Register("e2e.quadratic", func(b *benchspec.B) {
		n, h := b.IntParam("n"), uint64(1)
		for b.Loop() {
			for i := range n * n {
				h = h*0x9E3779B97F4A7C15 + uint64(i)
			}
		}
		benchspec.Sink(h)
	}, benchspec.IntParams{"n": {8}})
}

// A sweep with complexity: n^2 is fitted and classed n^2 in the JSON
// report (valid against the schema), the text and Markdown tables and
// the HTML page.
func TestComplexityFitsTheSweep(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^e2e\.quadratic$'
    params: {n: [16, 32, 64, 128, 256]}
    complexity: n^2
`)
	out := filepath.Join(t.TempDir(), "r.json")
	if r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet"); r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	if len(rep.Complexity) != 1 || rep.Complexity[0].Class != "n^2" || rep.Complexity[0].Param != "n" || len(rep.Complexity[0].Runs) != 5 {
		t.Fatalf("complexity %+v, want one fit over n of 5 runs, classed n^2", rep.Complexity)
	}
	// Two forks on a busy machine may not tell n^2 from n^3 ("n^2 or
	// n^3: cannot tell … best n^2 (…)"): the line names n^2 either way.
	// How often a sweep is classed right is complexity-rates.sh's to say.
	for format, want := range map[string]string{"text": "Complexity: e2e.quadratic avgt: n^2", "markdown": `_Complexity:_ e2e.quadratic avgt: n^2`} {
		r := suite(t, "report", "--format", format, out)
		if !strings.Contains(r.Stdout, want) || !strings.Contains(r.Stdout, "n^2 (") || !strings.Contains(r.Stdout, "n^2 as expected") {
			t.Errorf("%s report lacks %q … n^2 (…) … n^2 as expected:\n%s", format, want, r.Stdout)
		}
	}
	page := filepath.Join(t.TempDir(), "r.html")
	if r := suite(t, "report", "--format", "html", "--out", page, out); r.Code != 0 {
		t.Fatalf("html: exit %d: %s", r.Code, r.Stderr)
	}
	if html, _ := os.ReadFile(page); !strings.Contains(string(html), "<h2>Complexity</h2>") || !strings.Contains(string(html), "ns × n^2") {
		t.Errorf("the HTML page has no complexity chart")
	}
}
