package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"strconv"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/history"
)

// History writes a nightly history (package history) as one
// self-contained HTML page: no network, no JavaScript, no files beside
// it. Per series it shows the last value and the change points, and a
// chart: the score of each batch with its 99.9 % error bar, the mean
// level between change points as a dashed step, and each change point
// as a vertical line labelled with its batch, magnitude and the labels
// (or revisions) either side — red for a regression, green for an
// improvement.
func (Renderer) History(w io.Writer, h *history.History) error {
	pg := &historyPage{H: h, Summary: format.Summary(h), Regressions: h.Regressions()}
	for i := range h.Series {
		s := &h.Series[i]
		sec := section{ID: "series-" + strconv.Itoa(i+1), S: s, Trend: format.Trend(s)}
		if last, ok := s.Last(); ok {
			sec.Last = fmt.Sprintf("%s (batch %d)", format.ScoreString(last, s.Unit), last.Batch)
		}
		for _, cp := range s.ChangePoints {
			row := changeRow{Batch: cp.Batch, Before: side(cp.LabelBefore, cp.RevisionBefore),
				After: side(cp.LabelAfter, cp.RevisionAfter), Change: format.SignedPercent(float64(cp.Change)),
				P: format.Num(float64(cp.P)), Direction: cp.Direction}
			if cp.ChangeCI[0].Valid() {
				row.CI = "[" + format.SignedPercent(float64(cp.ChangeCI[0])) + ", " + format.SignedPercent(float64(cp.ChangeCI[1])) + "]"
			}
			sec.Changes = append(sec.Changes, row)
		}
		if len(s.Points) > 0 {
			svg, err := seriesChart(s)
			if err != nil {
				return err
			}
			sec.SVG = template.HTML(svg)
		}
		pg.Series = append(pg.Series, sec)
	}
	if err := historyTemplate().Execute(w, pg); err != nil {
		return fmt.Errorf("history: writing HTML: %w", err)
	}
	return nil
}

//go:embed history.tmpl
var historySource string

// historyTemplate is parsed on first use: every process of
// cmd/benchspec, the guard and the forks of package benchmarks included,
// would parse it at initialisation.
var historyTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("history").Parse(historySource))
})

type historyPage struct {
	H           *history.History
	Summary     string
	Regressions []*history.Series
	Series      []section
}

type section struct {
	ID      string
	S       *history.Series
	Last    string
	Trend   string
	Changes []changeRow
	SVG     template.HTML // drawn by gonum/plot, which escapes every text
}

type changeRow struct {
	Batch                     int
	Before, After, Change, CI string
	P, Direction              string
}

func side(label, rev string) string {
	switch {
	case label != "" && rev != "":
		return label + " (" + history.ShortRevision(rev) + ")"
	case label != "":
		return label
	case rev != "":
		return history.ShortRevision(rev)
	}
	return "?"
}

var (
	pointColor       = color.RGBA{R: 0x4c, G: 0x78, B: 0xa8, A: 0xff}
	lineColor        = color.RGBA{R: 0xb4, G: 0xc6, B: 0xdc, A: 0xff}
	levelColor       = color.RGBA{R: 0x1d, G: 0x23, B: 0x30, A: 0x90}
	regressionColor  = color.RGBA{R: 0xb3, G: 0x26, B: 0x1e, A: 0xff}
	improvementColor = color.RGBA{R: 0x1e, G: 0x7d, B: 0x32, A: 0xff}
)

// seriesHeight is the height of a series' chart.
const seriesHeight = 3.4 * vg.Inch

// seriesChart draws s: x the batch number, y the score.
func seriesChart(s *history.Series) ([]byte, error) {
	p := newPlot(s.Name(), "batch", s.Unit)
	p.Title.TextStyle.Font.Size = 12
	pts := make(plotter.XYs, len(s.Points))
	errs := make(plotter.YErrors, len(s.Points))
	for i, pt := range s.Points {
		e := 0.0
		if pt.Error.Valid() {
			e = float64(pt.Error)
		}
		pts[i] = plotter.XY{X: float64(pt.Batch), Y: float64(pt.Score)}
		errs[i] = struct{ Low, High float64 }{e, e}
	}
	lo, hi := yRange(s.Points)
	line, marks, err := plotter.NewLinePoints(pts)
	if err != nil {
		return nil, fmt.Errorf("history: chart of %s: %w", s.Name(), err)
	}
	line.Color, line.Width = lineColor, vg.Points(1)
	marks.Color, marks.Shape, marks.Radius = pointColor, draw.CircleGlyph{}, vg.Points(2.5)
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
	if err != nil {
		return nil, fmt.Errorf("history: chart of %s: %w", s.Name(), err)
	}
	eb.Color, eb.CapWidth = pointColor, vg.Points(5)
	p.Add(plotter.NewGrid(), line, eb, marks)
	if err := addLevels(p, s); err != nil {
		return nil, err
	}
	// Room above the data for the change points' labels.
	span := hi - lo
	if span <= 0 {
		span = math.Max(math.Abs(hi), 1) * 0.1
	}
	top := hi + 0.08*span*float64(2+len(s.ChangePoints))
	if err := addChanges(p, s, lo, top, span); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = lo-0.05*span, top+0.04*span
	first, last := float64(s.Points[0].Batch), float64(s.Points[len(s.Points)-1].Batch)
	p.X.Min, p.X.Max = first-0.5, last+0.5
	if last-first <= 30 {
		var ticks []plot.Tick
		for b := int(first); b <= int(last); b++ {
			ticks = append(ticks, plot.Tick{Value: float64(b), Label: strconv.Itoa(b)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	return svgOf(p, chartWidth, seriesHeight)
}

// yRange is the range of a series' y axis: its scores, and its error
// bars only as far as half the scores' spread beyond them (and not below
// zero when no score is), so that one noisy batch's wide error bar does
// not stretch the axis until a real step between the others flattens
// into a line (a ±85 us/op bar once set an axis of -75..125 for scores
// of 10 and 13). A bar that reaches further is cut at the edge.
func yRange(points []history.Point) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, pt := range points {
		lo, hi = math.Min(lo, float64(pt.Score)), math.Max(hi, float64(pt.Score))
	}
	reach := (hi - lo) / 2
	if reach == 0 { // a flat series: its error bars set the scale
		reach = math.Inf(1)
	}
	floor, ceil := lo-reach, hi+reach
	if lo >= 0 {
		floor = math.Max(floor, 0)
	}
	for _, pt := range points {
		if e := float64(pt.Error); pt.Error.Valid() {
			lo = math.Min(lo, math.Max(float64(pt.Score)-e, floor))
			hi = math.Max(hi, math.Min(float64(pt.Score)+e, ceil))
		}
	}
	return lo, hi
}

// addLevels draws the mean level of each stretch between change points.
func addLevels(p *plot.Plot, s *history.Series) error {
	if len(s.ChangePoints) == 0 {
		return nil
	}
	bounds := []int{0}
	for _, cp := range s.ChangePoints {
		bounds = append(bounds, cp.Index)
	}
	bounds = append(bounds, len(s.Points))
	for i := 0; i+1 < len(bounds); i++ {
		seg := s.Points[bounds[i]:bounds[i+1]]
		sum := 0.0
		for _, pt := range seg {
			sum += float64(pt.Score)
		}
		m := sum / float64(len(seg))
		l, err := plotter.NewLine(plotter.XYs{{X: float64(seg[0].Batch) - 0.4, Y: m}, {X: float64(seg[len(seg)-1].Batch) + 0.4, Y: m}})
		if err != nil {
			return fmt.Errorf("history: chart of %s: %w", s.Name(), err)
		}
		l.Color, l.Width = levelColor, vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		p.Add(l)
	}
	return nil
}

// addChanges draws each change point as a vertical line between the
// batches either side, labelled in a row of its own above the data.
func addChanges(p *plot.Plot, s *history.Series, lo, top, span float64) error {
	var lpts plotter.XYs
	var labels []string
	var styles []color.Color
	for i, cp := range s.ChangePoints {
		x := (float64(s.Points[cp.Index-1].Batch) + float64(cp.Batch)) / 2
		c := improvementColor
		if cp.Direction == history.Regression {
			c = regressionColor
		}
		y := top - 0.08*span*float64(i)
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo - 0.05*span}, {X: x, Y: y}})
		if err != nil {
			return fmt.Errorf("history: chart of %s: %w", s.Name(), err)
		}
		l.Color, l.Width = c, vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(l)
		lpts = append(lpts, plotter.XY{X: x, Y: y})
		// Short: gonum shrinks the data area until every label fits, and
		// the builds either side are in the table above the chart.
		labels = append(labels, fmt.Sprintf(" batch %d: %s %s", cp.Batch, format.SignedPercent(float64(cp.Change)), cp.Direction))
		styles = append(styles, c)
	}
	if len(lpts) == 0 {
		return nil
	}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: lpts, Labels: labels})
	if err != nil {
		return fmt.Errorf("history: chart of %s: %w", s.Name(), err)
	}
	for i := range lab.TextStyle {
		ts := &lab.TextStyle[i]
		ts.Font.Typeface, ts.Font.Variant, ts.Font.Size = chartFont.Typeface, chartFont.Variant, vg.Points(9)
		ts.Color = styles[i]
		ts.YAlign = draw.YCenter
		// A label right of its line, unless the line is in the right half.
		if lpts[i].X > (float64(s.Points[0].Batch)+float64(s.Points[len(s.Points)-1].Batch))/2 {
			ts.XAlign = draw.XRight
			lab.Labels[i] = labels[i][1:] + " "
		}
	}
	p.Add(lab)
	return nil
}

// IDOf is the anchor of s's section.
func (p *historyPage) IDOf(s *history.Series) string {
	for _, sec := range p.Series {
		if sec.S == s {
			return sec.ID
		}
	}
	return ""
}
