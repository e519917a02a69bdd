package html

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
)

// The charts of the HTML report, drawn by gonum/plot as SVG. gonum lays
// text out with Liberation Sans' metrics, but the SVG only names the
// font: a browser without it (and without Arimo or Arial, which share
// its metrics) sets wider text that overlaps and is clipped. So every
// text element also carries the width gonum gave it (textLength, see
// metricsSafe), which the browser fits whatever font it has.

var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

const chartWidth = 7.5 * vg.Inch

// newPlot returns a plot with the chart font everywhere.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	for _, t := range []*draw.TextStyle{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		t.Font.Typeface, t.Font.Variant = chartFont.Typeface, chartFont.Variant
	}
	p.Title.TextStyle.Font.Size = 13
	p.Legend.TextStyle.Font.Size = 10
	p.X.Tick.Marker, p.Y.Tick.Marker = distinctTicks{}, distinctTicks{}
	return p
}

// distinctTicks label five to a dozen ticks — gonum's default gives two
// or three, too few to read a value off a bar — with plain labels just
// precise enough to tell apart and to say the tick's value: the default
// prints 2.15 and 2.25 both as "2.2", and 12 as "1e+01".
type distinctTicks struct{}

func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := enoughTicks(lo, hi)
	for decimals := 0; decimals <= 12; decimals++ {
		if labelTicks(ticks, func(v float64) string { return strconv.FormatFloat(v, 'f', decimals, 64) }) {
			return ticks
		}
	}
	labelTicks(ticks, func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
	return ticks
}

// minTicks is the fewest labelled ticks an axis gets.
const minTicks = 5

// enoughTicks returns at least minTicks labelled ticks between lo and hi
// at the largest round step (1, 2, 2.5 or 5 times a power of ten) that
// gives that many, with an unlabelled tick halfway between each pair.
func enoughTicks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	count := func(step float64) int { return int(math.Floor(hi/step)-math.Ceil(lo/step)) + 1 }
	step := math.Pow10(int(math.Floor(math.Log10(hi - lo))))
search:
	for range 4 {
		for _, m := range []float64{5, 2.5, 2, 1} {
			if count(m*step) >= minTicks {
				step *= m
				break search
			}
		}
		step /= 10
	}
	var ticks []plot.Tick
	first := math.Ceil(lo / step)
	for i := 0; i < count(step); i++ {
		v := (first + float64(i)) * step
		ticks = append(ticks, plot.Tick{Value: v, Label: "·"})
		if half := v + step/2; half <= hi {
			ticks = append(ticks, plot.Tick{Value: half})
		}
	}
	if half := first*step - step/2; half >= lo {
		ticks = append(ticks, plot.Tick{Value: half})
	}
	return ticks
}

// labelTicks labels the labelled ticks with format and reports whether
// the labels are distinct and each reads back as its tick's value.
func labelTicks(ticks []plot.Tick, format func(float64) string) bool {
	seen, ok := map[string]bool{}, true
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		ticks[i].Label = format(t.Value)
		back, _ := strconv.ParseFloat(ticks[i].Label, 64)
		ok = ok && !seen[ticks[i].Label] && math.Abs(back-t.Value) <= 1e-9*math.Max(math.Abs(t.Value), 1e-300)
		seen[ticks[i].Label] = true
	}
	return ok
}

// barColor is the fill of score bars: a quiet blue.
var barColor = color.RGBA{R: 0x4c, G: 0x78, B: 0xa8, A: 0xff}

// maxChartValue bounds the values a chart draws. gonum/plot panics on
// scores near 1e200 and loops forever choosing ticks for a range near
// the largest float64; a report is input, and one absurd number must
// not lose the whole page. Such a chart is left out with a note
// (chartNote), the table still shows the numbers.
const maxChartValue = 1e100

// errUndrawable is a chart whose values are not finite or beyond
// ±maxChartValue.
var errUndrawable = fmt.Errorf("a value is not finite or beyond ±%g", float64(maxChartValue))

// drawable reports whether every value can be drawn.
func drawable(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.Abs(v) > maxChartValue {
			return false
		}
	}
	return true
}

// chartNote is what stands in for a chart that could not be drawn.
func chartNote(err error) []byte {
	return []byte(`<p class="note">Chart not drawn: ` + template.HTMLEscapeString(err.Error()) + `</p>`)
}

// svgOf draws p at the given size and returns the <svg> element, without
// the XML prolog that a standalone file has. A panic of gonum/plot is an
// error.
func svgOf(p *plot.Plot, w, h vg.Length) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("report: drawing chart %q: %v", p.Title.Text, r)
		}
	}()
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	return svgBytes(c, p.Title.Text)
}

// svgBytes is the canvas's SVG element, its text kept to the widths
// the chart was laid out with (metricsSafe).
func svgBytes(c *vgsvg.Canvas, title string) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: drawing chart %q: %w", title, err)
	}
	out := buf.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:]
	}
	return metricsSafe(out), nil
}

// svgOfLegendBelow is svgOf with p's legend drawn under the chart, in a
// band of its own, rather than over the data (gonum places a legend
// inside the plot area).
func svgOfLegendBelow(p *plot.Plot, w, h vg.Length) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("report: drawing chart %q: %v", p.Title.Text, r)
		}
	}()
	legend := p.Legend
	p.Legend = plot.NewLegend() // an empty legend is not drawn
	legend.Top, legend.Left, legend.Padding = true, true, vg.Points(2)
	legend.XOffs, legend.YOffs = vg.Points(40), -vg.Points(2)
	band := legend.Rectangle(draw.New(vgsvg.New(w, h))).Size().Y + vg.Points(8)
	c := vgsvg.New(w, h+band)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, 0, band, 0))
	legend.Draw(draw.Crop(dc, 0, 0, 0, -h))
	return svgBytes(c, p.Title.Text)
}

// svgTextRE is a text element as vgsvg writes it.
var svgTextRE = regexp.MustCompile(`(?s)<text ([^>]*?)style="([^"]*)">([^<]*)</text>`)

var fontSizeRE = regexp.MustCompile(`font-size:([0-9.]+)px`)

// metricsSafe gives every text element of svg the width gonum/plot laid
// it out with (textLength, in Liberation Sans' metrics, which the chart
// font's Arial-compatible fallbacks share) and a list of fallback fonts,
// so that a browser with other fonts fits the text into the same width
// rather than running it over the edge or into the data.
func metricsSafe(svg []byte) []byte {
	return svgTextRE.ReplaceAllFunc(svg, func(m []byte) []byte {
		sub := svgTextRE.FindSubmatch(m)
		attrs, style, text := string(sub[1]), string(sub[2]), string(sub[3])
		size := fontSizeRE.FindStringSubmatch(style)
		if size == nil || strings.TrimSpace(text) == "" {
			return m
		}
		pt, err := strconv.ParseFloat(size[1], 64)
		if err != nil || pt <= 0 {
			return m
		}
		face := font.DefaultCache.Lookup(chartFont, vg.Length(pt))
		width := face.Width(html.UnescapeString(text)).Points()
		style = strings.Replace(style, "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;", 1)
		return fmt.Appendf(nil, `<text %stextLength="%.2f" lengthAdjust="spacingAndGlyphs" style="%s">%s</text>`, attrs, width, style, text)
	})
}

// bar is one bar of a score chart.
type bar struct {
	Label        string
	Score, Error float64 // Error 0 when there is none
}

// errorBar is how far the bar's error bar reaches below and above its
// score. A time or a rate is never below zero, so the error bar of a
// score near zero (a DEAD_CODE body: 0.3 ± 0.64 ns/op) stops at zero
// rather than drawing an interval of negative times.
func (b bar) errorBar() (low, high float64) {
	return math.Min(b.Error, math.Max(b.Score, 0)), b.Error
}

// scoreChart draws a horizontal bar per score with its error bar; all
// scores share unit. Scores that do not exist must have been left out.
func scoreChart(title, unit string, bars []bar) ([]byte, error) {
	p := newPlot(title, unit, "")
	values := make(plotter.Values, len(bars))
	points := make(plotter.XYs, len(bars))
	errs := make(plotter.XErrors, len(bars))
	labels := make([]string, len(bars))
	left, right := 0.0, 0.0
	for _, b := range bars {
		if !drawable(b.Score, b.Error, b.Score+b.Error, b.Score-b.Error) {
			return nil, errUndrawable
		}
	}
	for i, b := range bars {
		j := len(bars) - 1 - i // the first bar on top
		values[j], labels[j] = b.Score, b.Label
		points[j] = plotter.XY{X: b.Score, Y: float64(j)}
		errs[j].Low, errs[j].High = b.errorBar()
		right = math.Max(right, b.Score+b.Error)
		left = math.Min(left, b.Score)
	}
	bc, err := plotter.NewBarChart(values, vg.Points(14))
	if err != nil {
		return nil, fmt.Errorf("report: chart %q: %w", title, err)
	}
	bc.Horizontal = true
	bc.Color = barColor
	bc.LineStyle.Width = 0
	eb, err := plotter.NewXErrorBars(struct {
		plotter.XYs
		plotter.XErrors
	}{points, errs})
	if err != nil {
		return nil, fmt.Errorf("report: chart %q: %w", title, err)
	}
	eb.LineStyle.Width = vg.Points(1.2)
	eb.CapWidth = vg.Points(8)
	p.Add(bc, eb, plotter.NewGrid())
	p.NominalY(labels...)
	p.X.Min, p.X.Max = left, math.Max(p.X.Max, 1.04*right) // zero, unless a score is below; room for the caps
	return svgOf(p, chartWidth, vg.Points(float64(70+24*len(bars))))
}

// complexityChart draws a complexity fit: the time per op of each run
// with its 99.9 % error against n, on log–log axes, and the fitted
// class's curve.
func complexityChart(c *report.Complexity, runs []report.Run) ([]byte, error) {
	p := newPlot(strings.Join(strings.Fields(c.Benchmark+" "+paramLabel(c.Params)+" "+c.Mode.String()), " "), c.Param, "ns/op")
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	var ticks []plot.Tick // a tick at every n: log ticks label only powers of 10
	var pts plotter.XYs
	var errs plotter.YErrors
	for i, k := range c.Runs {
		ticks = append(ticks, plot.Tick{Value: float64(c.N[i]), Label: strconv.FormatFloat(float64(c.N[i]), 'g', -1, 64)})
		r := &runs[slices.IndexFunc(runs, func(r report.Run) bool { return r.Key == k })]
		ns, _ := report.TimePerOp(r)
		half := ns * float64(r.Primary.ScoreError/r.Primary.Score) // a rate's too, to first order
		if !drawable(ns, half, float64(c.N[i])) || ns <= 0 {
			return nil, errUndrawable
		}
		pts = append(pts, plotter.XY{X: float64(c.N[i]), Y: ns})
		errs = append(errs, struct{ Low, High float64 }{math.Min(half, ns/2), half})
	}
	marks, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("report: chart %q: %w", p.Title.Text, err)
	}
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
	if err != nil {
		return nil, fmt.Errorf("report: chart %q: %w", p.Title.Text, err)
	}
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.ConstantTicks(ticks)
	class := stats.Class(c.Class)
	curve := plotter.NewFunction(func(n float64) float64 { return float64(c.Coefficient) * class.Of(n) })
	curve.XMin, curve.XMax, curve.Samples = float64(c.N[0]), float64(c.N[len(c.N)-1]), 50
	curve.Color = barColor
	p.Add(curve, marks, eb, plotter.NewGrid())
	p.Legend.Add("score ± 99.9 % error", marks)
	p.Legend.Add(fmt.Sprintf("%.3g ns × %s", c.Coefficient, c.Class), curve)
	return svgOfLegendBelow(p, chartWidth, 3.2*vg.Inch)
}

// iterationChart draws the score of every iteration of every fork of a
// run, warmup included, one line per fork, with the start of the
// measurement marked: warmup trends and forks that disagree show at once.
func iterationChart(title string, run *report.Run) ([]byte, error) {
	p := newPlot(title, "iteration (warmup, then measurement)", run.Mode.Unit(run.Settings.TimeUnit))
	warmupIts, lo, hi := 0, math.Inf(1), math.Inf(-1)
	for fi, f := range run.Forks {
		var pts plotter.XYs
		warm := 0
		for _, it := range f.Iterations {
			if it.Phase == protocol.PhaseWarmup {
				warm++
			}
		}
		warmupIts = max(warmupIts, warm)
		for _, it := range f.Iterations {
			x := float64(it.Index)
			if it.Phase == protocol.PhaseMeasurement {
				x += float64(warm)
			}
			if it.Score.Valid() {
				if !drawable(float64(it.Score), x) {
					return nil, errUndrawable
				}
				pts = append(pts, plotter.XY{X: x, Y: float64(it.Score)})
				lo, hi = math.Min(lo, float64(it.Score)), math.Max(hi, float64(it.Score))
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, marks, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("report: chart %q: %w", title, err)
		}
		line.Color, marks.Color = plotutil.Color(fi), plotutil.Color(fi)
		marks.Shape = plotutil.Shape(fi)
		name := "fork " + strconv.Itoa(f.Fork)
		if f.Warmup {
			name += " (warmup fork)"
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		if f.Error != "" {
			name += " (failed)"
		}
		p.Add(line, marks)
		p.Legend.Add(name, line, marks)
	}
	if warmupIts > 0 && lo <= hi {
		edge, err := plotter.NewLine(plotter.XYs{{X: float64(warmupIts) + 0.5, Y: lo}, {X: float64(warmupIts) + 0.5, Y: hi}})
		if err != nil {
			return nil, fmt.Errorf("report: chart %q: %w", title, err)
		}
		edge.Color = color.Gray{Y: 150}
		edge.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(edge)
		its := "iterations"
		if warmupIts == 1 {
			its = "iteration"
		}
		p.Legend.Add(fmt.Sprintf("measurement starts (after %d warmup %s)", warmupIts, its), edge)
	}
	if n := warmupIts + run.Settings.Measurement.Iterations; n <= 30 {
		ticks := make([]plot.Tick, n)
		for i := range ticks {
			ticks[i] = plot.Tick{Value: float64(i + 1), Label: strconv.Itoa(i + 1)}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	p.Add(plotter.NewGrid())
	return svgOfLegendBelow(p, chartWidth, 3.2*vg.Inch)
}

// distributionChart draws a sample-mode histogram as a percentile curve:
// the value (y) below which a fraction q of the samples fall, with q on a
// "nines" axis (x = -log10(1-q): 90 %, 99 %, 99.9 % … evenly spaced), the
// way latency is usually read; y is logarithmic when the values span
// more than a factor of 10.
func distributionChart(title string, h *report.Histogram, unit string) ([]byte, error) {
	p := newPlot(title, "percentile", unit)
	xMax := math.Log10(float64(h.Count))
	positive := true
	for _, b := range h.Bins {
		if !drawable(float64(b.Value)) {
			return nil, errUndrawable
		}
		positive = positive && b.Value > 0
	}
	var pts plotter.XYs
	var seen uint64
	for _, b := range h.Bins {
		// A report's counts may not add up: q stays within [0, 1].
		lo := math.Min(float64(seen)/float64(h.Count), 1)
		seen += b.Count
		hi := math.Min(float64(seen)/float64(h.Count), 1)
		for _, q := range []float64{lo, hi} {
			pts = append(pts, plotter.XY{X: math.Min(-math.Log10(1-q), xMax), Y: float64(b.Value)})
		}
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("report: chart %q: %w", title, err)
	}
	line.Color, line.Width = plotutil.Color(0), vg.Points(1.5)
	p.Add(line, plotter.NewGrid())
	var ticks []plot.Tick
	for n := 0; float64(n) <= math.Ceil(xMax); n++ {
		ticks = append(ticks, plot.Tick{Value: float64(n), Label: ninesLabel(n)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = 0, math.Max(math.Ceil(xMax), 1)
	if positive && h.Min > 0 && float64(h.Max)/float64(h.Min) > 10 {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	return svgOf(p, chartWidth, 3.2*vg.Inch)
}

// ninesLabel labels the percentile 1-10⁻ⁿ: "0%", "90%", "99%", "99.9%"…
func ninesLabel(n int) string {
	if n == 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*(1-math.Pow10(-n)), 'f', max(n-2, 0), 64) + "%"
}
