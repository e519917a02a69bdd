package html

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/history"
	"github.com/benchspec/benchspec/report/reporttest"
)

var svgText = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// texts are the strings a chart shows, in drawing order.
func texts(svg []byte) []string {
	var out []string
	for _, m := range svgText.FindAllSubmatch(svg, -1) {
		out = append(out, html.UnescapeString(string(m[1])))
	}
	return out
}

// numbers are the texts that are numbers: the tick labels.
func numbers(texts []string) []float64 {
	var out []float64
	for _, s := range texts {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// deadCodeBars are the bars of issue 19's DEAD_CODE chart: an empty body
// whose error is wider than its score, beside a real one.
var deadCodeBars = []bar{{Label: "Dropped avgt", Score: 0.3, Error: 0.64}, {Label: "Sunk avgt", Score: 1.9, Error: 0.1}}

// TestDeadCodeChartStaysAboveZero draws the score chart of a DEAD_CODE
// run: its axis and error bar went down to −0.34 ns/op, a time that
// cannot be.
func TestDeadCodeChartStaysAboveZero(t *testing.T) {
	for _, b := range deadCodeBars {
		if low, high := b.errorBar(); b.Score-low < 0 || high != b.Error {
			t.Errorf("%s: error bar [%g, %g], want it clipped at zero below and %g above", b.Label, b.Score-low, b.Score+high, b.Error)
		}
	}
	svg, err := scoreChart("Score: dead (ns/op)", "ns/op", deadCodeBars)
	if err != nil {
		t.Fatal(err)
	}
	// Drawn: the x axis line starts where the bars start, at zero.
	axis := regexp.MustCompile(`d="M([0-9.]+),([0-9.]+)L540,([0-9.]+)"`).FindSubmatch(svg)
	bars := regexp.MustCompile(`d="M([0-9.]+),[0-9.]+L[^"]*Z" style="fill:#4C78A8"`).FindAllSubmatch(svg, -1)
	if axis == nil || len(bars) != len(deadCodeBars) {
		t.Fatalf("found no x axis line (%q) or not %d bars (%d) in the chart", axis, len(deadCodeBars), len(bars))
	}
	for _, b := range bars {
		if string(b[1]) != string(axis[1]) {
			t.Errorf("a bar starts at x = %s, the x axis at %s: the axis reaches below zero", b[1], axis[1])
		}
	}
	ticks := numbers(texts(svg))
	if len(ticks) == 0 || ticks[0] != 0 {
		t.Errorf("x axis ticks %v, want them to start at 0", ticks)
	}
	for _, v := range ticks {
		if v < 0 {
			t.Errorf("x axis tick %g is below zero: %v", v, ticks)
		}
	}
}

// TestChartsHaveEnoughTicks checks every axis of every chart of the
// fixture's page and of the DEAD_CODE chart for at least minTicks
// labelled ticks (gonum's default gives 2 or 3), each label distinct.
func TestChartsHaveEnoughTicks(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{0, 1.976}, {0, 2.7}, {10.2, 13.9}, {9e5, 1.1e6}, {-3, 7}, {0.0001, 0.00042}} {
		var labels []string
		for _, tk := range (distinctTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if len(labels) < minTicks || len(labels) > 3*minTicks {
			t.Errorf("[%g, %g]: %d labelled ticks %v, want %d to %d", c.lo, c.hi, len(labels), labels, minTicks, 3*minTicks)
		}
	}
	p, forks, env := reporttest.Fixture()
	r := report.Build(p, forks, env)
	svg, err := iterationChart("Iterations of counter.Inc1", &r.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	// y: the scores 10..14 ns/op, warmups 50 and 100; x: the iterations 1..5.
	if ys := numbers(texts(svg)); len(ys) < 2*minTicks {
		t.Errorf("iteration chart tick labels %v, want at least %d per axis", ys, minTicks)
	}
}

// TestChartTextsGolden keeps the texts of the charts that issue 19 found
// hard to read — the DEAD_CODE score chart and an iteration chart with
// its warmup/measurement divider, now labelled in the legend — as a
// golden file: their ticks and labels, not gonum's coordinates.
func TestChartTextsGolden(t *testing.T) {
	var out strings.Builder
	svg, err := scoreChart("Score: dead (ns/op)", "ns/op", deadCodeBars)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&out, "score chart:\n  %s\n", strings.Join(texts(svg), "\n  "))
	p, forks, env := reporttest.Fixture()
	r := report.Build(p, forks, env)
	svg, err = iterationChart("Iterations of counter.Inc1", &r.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	got := texts(svg)
	fmt.Fprintf(&out, "iteration chart:\n  %s\n", strings.Join(got, "\n  "))
	if want := "measurement starts (after 2 warmup iterations)"; !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("iteration chart lacks the divider's label %q: %q", want, got)
	}
	reporttest.Golden(t, "charts.golden", out.String())
}

var svgTextAttrs = regexp.MustCompile(`<text ([^>]*)>([^<]*)</text>`)

// textY is where a text element of a gonum SVG sits, up from the chart's
// bottom: vgsvg flips every text with scale(1, -1), so y is its negative.
func textY(t *testing.T, svg []byte, text string) float64 {
	t.Helper()
	for _, m := range svgTextAttrs.FindAllSubmatch(svg, -1) {
		if html.UnescapeString(string(m[2])) == text {
			y := regexp.MustCompile(`\by="([-0-9.]+)"`).FindSubmatch(m[1])
			v, err := strconv.ParseFloat(string(y[1]), 64)
			if err != nil {
				t.Fatal(err)
			}
			return -v
		}
	}
	t.Fatalf("no text %q in the chart", text)
	return 0
}

// TestChartTextKeepsItsWidth: every text of a chart carries the width
// gonum laid it out with and fallback fonts of the same metrics, so that
// a browser without Liberation Sans neither clips the labels nor runs
// them into the data.
func TestChartTextKeepsItsWidth(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	r := report.Build(p, forks, env)
	svg, err := iterationChart("Iterations of counter.Inc1", &r.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range svgTextAttrs.FindAllSubmatch(svg, -1) {
		text := html.UnescapeString(string(m[2]))
		if strings.TrimSpace(text) == "" {
			continue
		}
		n++
		attrs := string(m[1])
		tl := regexp.MustCompile(`textLength="([0-9.]+)"`).FindStringSubmatch(attrs)
		size := fontSizeRE.FindStringSubmatch(attrs)
		if tl == nil || size == nil || !strings.Contains(attrs, `lengthAdjust="spacingAndGlyphs"`) || !strings.Contains(attrs, "Arimo,Arial,Helvetica,sans-serif") {
			t.Errorf("text %q: %s; want textLength, lengthAdjust and fallback fonts", text, attrs)
			continue
		}
		pt, _ := strconv.ParseFloat(size[1], 64)
		got, _ := strconv.ParseFloat(tl[1], 64)
		face := font.DefaultCache.Lookup(chartFont, vg.Length(pt))
		if want := face.Width(text).Points(); math.Abs(got-want) > 0.01 {
			t.Errorf("text %q: textLength %v, want gonum's width %v", text, got, want)
		}
	}
	if n < 10 {
		t.Errorf("%d texts checked, want the chart's title, labels and ticks", n)
	}
}

// TestIterationLegendBelowThePlot: the legend of an iteration chart is
// drawn under the chart, not over the lines (it covered them).
func TestIterationLegendBelowThePlot(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	r := report.Build(p, forks, env)
	svg, err := iterationChart("Iterations of counter.Inc1", &r.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	axis := textY(t, svg, "iteration (warmup, then measurement)")
	for _, entry := range []string{"fork 1 (warmup fork)", "fork 3", "measurement starts (after 2 warmup iterations)"} {
		if y := textY(t, svg, entry); y >= axis {
			t.Errorf("legend entry %q at %v, want it below the x axis label at %v", entry, y, axis)
		}
	}
}

// TestHistoryAxisFollowsTheScores: one batch's wide error bar does not
// stretch the y axis (it ran to -75 us/op for scores of 10 and 13 and
// flattened the step between them); positive scores keep it above 0.
func TestHistoryAxisFollowsTheScores(t *testing.T) {
	var pts []history.Point
	for i := 1; i <= 12; i++ {
		sc, e := 10.0, 0.4
		if i > 6 {
			sc = 13
		}
		if i == 3 {
			e = 85
		}
		pts = append(pts, history.Point{Batch: i, Score: report.Float(sc), Error: report.Float(e)})
	}
	if lo, hi := yRange(pts); lo < 8.5 || lo > 9.6 || hi > 14.5 || hi < 13.4 {
		t.Errorf("y range [%g, %g], want about [8.5, 14.5]: the scores 10..13, error bars to half their spread beyond", lo, hi)
	}
	flat := []history.Point{{Batch: 1, Score: 0.5, Error: 2}, {Batch: 2, Score: 0.5, Error: 0.1}}
	if lo, hi := yRange(flat); lo != 0 || hi != 2.5 {
		t.Errorf("flat series: y range [%g, %g], want [0, 2.5]: its error bars, not below zero", lo, hi)
	}
}
