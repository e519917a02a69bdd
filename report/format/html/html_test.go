package html

import (
	"regexp"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

// render renders rep as the HTML page.
func render(t *testing.T, rep *report.Report) string {
	t.Helper()
	var b strings.Builder
	if err := (Renderer{}).Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var svgElement = regexp.MustCompile(`(?s)<svg .*?</svg>`)

// TestHTMLGolden checks the page of the fixture against its golden file.
// The charts are replaced by a placeholder: they are checked by the tests
// below, and their exact coordinates are gonum/plot's.
func TestHTMLGolden(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	got := render(t, report.Build(p, forks, env))
	reporttest.Golden(t, "report.html.golden", svgElement.ReplaceAllString(got, "<svg>…</svg>"))
}

// TestHTMLSelfContained checks that the page needs nothing but itself:
// no scripts, no stylesheets or images from elsewhere, no fonts to fetch.
func TestHTMLSelfContained(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	page := render(t, report.Build(p, forks, env))
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)<script`),
		regexp.MustCompile(`(?i)<link`),
		regexp.MustCompile(`(?i)<img`),
		regexp.MustCompile(`(?i)@import`),
		regexp.MustCompile(`(?i)url\(`),
		regexp.MustCompile(`(?i)(src|href)="(https?:)?//`),
		regexp.MustCompile(`(?i)\bon[a-z]+="`), // inline event handlers
	} {
		if loc := bad.FindStringIndex(page); loc != nil {
			t.Errorf("page contains %q: %q", bad, page[loc[0]:min(loc[1]+40, len(page))])
		}
	}
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(page, "</html>\n") {
		t.Errorf("page is not one whole HTML document")
	}
}

// TestHTMLCharts counts the charts: one score chart per group and unit,
// an iteration chart per run, a distribution per sample-mode run.
func TestHTMLCharts(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	page := render(t, report.Build(p, forks, env))
	// groups: counter (ns/op), counter (ops/us), log (us/op); sqrt.Crash failed
	// runs: 4 iteration charts; log.Classic sample: 1 distribution
	if got, want := strings.Count(page, "<svg"), 3+4+1; got != want {
		t.Errorf("page has %d charts, want %d", got, want)
	}
	for _, want := range []string{
		"Score ± 99.9 % error: counter (ns/op)", "Iterations of counter.Inc1 (size = 10) avgt",
		"Distribution of log.Classic sample", "fork 1 (warmup fork)", "99.9%",
		`<p class="failed-run">Failed: fork 2: exit status 2</p>`, "panic: boom",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestHTMLEscapes feeds markup through every place a name reaches: the
// table, the headings and the charts' text.
func TestHTMLEscapes(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
	rep.Runs[0].Benchmark = `x.<b onclick="1">`
	rep.Runs[3].Error = "<script>alert(1)</script>"
	page := render(t, rep)
	for _, bad := range []string{"<b onclick", "<script>"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains unescaped %q", bad)
		}
	}
	if !strings.Contains(page, "&lt;b onclick=") {
		t.Errorf("the chart or table lacks the escaped name")
	}
}

// TestHTMLRunWithoutIterations renders a run whose only fork died before
// its first iteration: an empty chart, not an error.
func TestHTMLRunWithoutIterations(t *testing.T) {
	p, _, env := reporttest.Fixture()
	dead := protocol.ForkResult{Run: 3, Fork: 1, ExitStatus: -1, Err: "killed: timeout"}
	got := render(t, report.Build(p, []protocol.ForkResult{dead}, env))
	if want := "Failed: fork 1: killed: timeout"; !strings.Contains(got, want) {
		t.Errorf("page lacks %q", want)
	}
}

// TestHTMLChartNamesThreads: a bar of a run of 2 goroutines is labelled
// as the run table names it, not as the 1-goroutine run of the same
// benchmark.
func TestHTMLChartNamesThreads(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	rep := report.Build(p, forks, env)
	rep.Runs[0].Threads = 2
	page := render(t, rep)
	for _, want := range []string{"Inc1/threads=2 size=10 avgt", "Iterations of counter.Inc1/threads=2 (size = 10) avgt"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestHTMLGroup: a group's rows share one score chart, the group's bar
// beside its members', and each row has its run section.
func TestHTMLGroup(t *testing.T) {
	page := render(t, report.Build(reporttest.Group(300)))
	// charts: rw (ops/us), counter (ns/op); 4 iteration charts
	if got, want := strings.Count(page, "<svg"), 2+4; got != want {
		t.Errorf("page has %d charts, want %d", got, want)
	}
	for _, want := range []string{
		"Score ± 99.9 % error: rw (ops/us)", "rw:write/threads=write:1,read:3 thrpt", "rw:read/threads=write:1,read:3 thrpt",
		"Iterations of rw/threads=write:1,read:3 thrpt", "Iterations of rw:read/threads=write:1,read:3 thrpt",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
