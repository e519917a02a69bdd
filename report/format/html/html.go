// Package html renders a report as one self-contained HTML page with SVG
// charts drawn by gonum/plot. Only cmd/benchspec imports it: the charts
// link gonum/plot and its fonts, which a suite binary — and so every fork,
// a suite binary started afresh — would pay for at each start. A suite
// writes JSON, and `benchspec report --format html` draws the page. The
// page's result table reads the same rows and footnotes as the other
// tables (format.Rows). Renderer.History draws the nightly history's
// page (package history) with the same charts.
package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
)

// Renderer writes one self-contained HTML page: no network, no
// JavaScript, no files beside it. It holds the environment with its
// check's diagnostics, the result table (as in Markdown, with failed runs
// and diagnostics as notes), per run its settings, failure and
// diagnostics, and SVG charts
// drawn with gonum/plot, inlined in the page:
//
//   - per benchmark group (the name up to its last dot, like a JMH class)
//     and unit, the score of each run with its 99.9 % error bar;
//   - per sample-mode run, the latency distribution as a percentile curve;
//   - per run, the score of every iteration of every fork, warmup
//     included, to spot warmup trends and forks that disagree.
type Renderer struct{}

//go:embed html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use, as historyTemplate.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(htmlSource))
})

// htmlPage is what the template shows.
type htmlPage struct {
	R       *report.Report
	Env     [][2]string
	Check   []report.Diagnostic // of the environment check
	Header  []string
	Rows    []htmlRow
	Notes   []format.Note
	Groups  []htmlChart
	Fits    []htmlChart // complexity: a chart per fit, titled by its summary
	Runs    []htmlRun
	Created string
}

type htmlRow struct {
	Cells []string
	Class string // "failed", "secondary" or ""
	ID    string // anchor of the run's section, on primary rows
}

type htmlChart struct {
	Title string
	SVG   template.HTML // drawn by gonum/plot, which escapes every text
}

type htmlRun struct {
	ID, Title   string
	Run         *report.Run
	Charts      []htmlChart
	Diagnostics []report.Diagnostic
}

// Render writes the HTML page of r to w.
func (Renderer) Render(w io.Writer, r *report.Report) error {
	page := &htmlPage{R: r, Env: htmlEnv(r), Check: format.CheckDiagnostics(r), Created: r.Env.End.UTC().Format(time.RFC3339)}
	page.Header, page.Rows, page.Notes = htmlTable(r)
	var err error
	if page.Groups, err = groupCharts(r); err != nil {
		return err
	}
	for _, c := range report.Fits(r.Runs) {
		svg, err := complexityChart(&c, r.Runs)
		if err != nil {
			svg = chartNote(err)
		}
		page.Fits = append(page.Fits, htmlChart{Title: format.ComplexityLine(&c), SVG: template.HTML(svg)})
	}
	for i := range r.Runs {
		run := &r.Runs[i]
		hr := htmlRun{ID: runID(i), Title: format.RunLabel(run), Run: run, Diagnostics: run.Diagnostics}
		if run.Primary != nil && run.Primary.Histogram != nil && run.Primary.Histogram.Count > 0 {
			svg, err := distributionChart("Distribution of "+hr.Title, run.Primary.Histogram, run.Primary.ScoreUnit)
			if err != nil {
				svg = chartNote(err)
			}
			hr.Charts = append(hr.Charts, htmlChart{Title: "Latency distribution", SVG: template.HTML(svg)})
		}
		svg, err := iterationChart("Iterations of "+hr.Title, run)
		if err != nil {
			svg = chartNote(err)
		}
		hr.Charts = append(hr.Charts, htmlChart{Title: "Iteration scores by fork", SVG: template.HTML(svg)})
		page.Runs = append(page.Runs, hr)
	}
	if err := htmlTemplate().Execute(w, page); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	return nil
}

func runID(i int) string { return "run-" + strconv.Itoa(i+1) }

func htmlEnv(r *report.Report) [][2]string {
	e := &r.Env
	ns := func(f report.Float) string {
		if !f.Valid() {
			return "not measured"
		}
		return strconv.FormatFloat(float64(f), 'f', 1, 64) + " ns"
	}
	env := [][2]string{
		{"Suite", r.Suite},
		{"benchspec", e.ToolVersion},
		{"Go", e.GoVersion + " " + e.GOOS + "/" + e.GOARCH},
		{"CPU", fmt.Sprintf("%s (%d CPUs, GOMAXPROCS %d)", strings.TrimSpace(e.CPU), e.NumCPU, e.GOMAXPROCS)},
		{"Host", e.Hostname},
		{"Timer", "resolution " + ns(e.TimerResolutionNs) + ", overhead " + ns(e.TimerOverheadNs)},
		{"Time", e.Start.UTC().Format(time.RFC3339) + " – " + e.End.UTC().Format(time.RFC3339) +
			" (" + e.End.Sub(e.Start).Round(time.Second).String() + ")"},
	}
	for _, s := range r.Specs {
		env = append(env, [2]string{"Spec", s.Path + " (sha256 " + s.SHA256 + ")"})
	}
	return env
}

// htmlTable is the result table: the Markdown table's columns and rows.
func htmlTable(r *report.Report) ([]string, []htmlRow, []format.Note) {
	names := format.ParamNames(r.Runs)
	rows, notes := format.Rows(r)
	out := make([]htmlRow, len(rows))
	for i, row := range rows {
		out[i].Cells = row.Cells(names)
		switch {
		case row.Secondary:
			out[i].Class = "secondary"
		case row.Metric == nil && row.Run.Skipped():
			out[i].Class = "skipped"
		case row.Metric == nil:
			out[i].Class = "failed"
		}
		if !row.Secondary {
			out[i].ID = runID(runIndex(r, row.Run))
		}
	}
	return format.Header(names), out, notes
}

func runIndex(r *report.Report, run *report.Run) int {
	for i := range r.Runs {
		if &r.Runs[i] == run {
			return i
		}
	}
	return -1
}

// groupCharts draws one score chart per benchmark group and unit, in the
// order the groups first appear; failed runs and scores that do not
// exist have no bar.
func groupCharts(r *report.Report) ([]htmlChart, error) {
	type key struct{ group, unit string }
	bars := map[key][]bar{}
	var order []key
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.Primary == nil || !run.Primary.Score.Valid() {
			continue
		}
		name := run.Benchmark
		if run.Member != "" {
			name = run.Group // a group's members beside the group, not a chart each
		}
		group, method := splitGroup(name)
		if run.Member != "" {
			method += ":" + run.Member
		}
		if g := run.GroupThreads(); g != "" { // as the run table names it
			method += "/threads=" + g
		} else if run.Threads > 1 {
			method += "/threads=" + strconv.Itoa(run.Threads)
		}
		k := key{group, run.Primary.ScoreUnit}
		if _, ok := bars[k]; !ok {
			order = append(order, k)
		}
		label := strings.TrimSpace(method + " " + paramLabel(run.Params) + " " + run.Mode.String())
		e := float64(run.Primary.ScoreError)
		if !run.Primary.ScoreError.Valid() {
			e = 0
		}
		bars[k] = append(bars[k], bar{Label: label, Score: float64(run.Primary.Score), Error: e})
	}
	var charts []htmlChart
	for _, k := range order {
		title := k.group + " (" + k.unit + ")"
		if k.group == "" {
			title = k.unit
		}
		svg, err := scoreChart("Score ± 99.9 % error: "+title, k.unit, bars[k])
		if err != nil {
			svg = chartNote(err)
		}
		charts = append(charts, htmlChart{Title: title, SVG: template.HTML(svg)})
	}
	return charts, nil
}

// splitGroup splits a benchmark name at its last dot into group and
// method, like a JMH class and method: "log.Classic" is ("log", "Classic").
func splitGroup(name string) (group, method string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return name, name
}

// paramLabel writes params as "a=1 size=10", names sorted.
func paramLabel(params map[string]string) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + params[k]
	}
	return strings.Join(parts, " ")
}
