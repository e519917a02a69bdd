package format

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/report/history"
)

// The history's words and numbers, the same in text, markdown and the
// HTML page (report/format/html), and the text and markdown pages
// (Text.History, Markdown.History).

// Summary is the one-line account of what h covers and how it was
// analysed.
func Summary(h *history.History) string {
	if len(h.Batches) == 0 {
		return "no batches"
	}
	first, last := h.Batches[0].Start.UTC(), h.Batches[len(h.Batches)-1].Start.UTC()
	return fmt.Sprintf("%d batches from %s to %s, %d series; change points by E-Divisive means with Student's t-test at p ≤ %s, change ≥ %s",
		len(h.Batches), first.Format("2006-01-02 15:04"), last.Format("2006-01-02 15:04"), len(h.Series), strconv.FormatFloat(h.P, 'g', -1, 64), Percent(h.MinChange))
}

func historyText(w io.Writer, h *history.History) {
	w = termsafe.Writer(w) // names and labels come from the reports
	fmt.Fprintf(w, "History: %s\n", Summary(h))
	for i := range h.Series {
		s := &h.Series[i]
		fmt.Fprintf(w, "\n%s  (%s, %s is better)\n", s.Name(), s.Unit, s.Better)
		last, ok := s.Last()
		if !ok {
			fmt.Fprintf(w, "  no successful run (failed in batches %s)\n", batchList(s.FailedBatches))
			continue
		}
		fmt.Fprintf(w, "  last:   %s (batch %d%s)\n", ScoreString(last, s.Unit), last.Batch, pointTag(last))
		fmt.Fprintf(w, "  trend:  %s  %s\n", Sparkline(s.Points, 40), Trend(s))
		if len(s.FailedBatches) > 0 {
			fmt.Fprintf(w, "  failed: batches %s\n", batchList(s.FailedBatches))
		}
		if s.OtherUnit > 0 {
			fmt.Fprintf(w, "  left out: %d points in a unit that does not convert to %s\n", s.OtherUnit, s.Unit)
		}
		if len(s.ChangePoints) == 0 {
			fmt.Fprintf(w, "  no change points\n")
		}
		for _, cp := range s.ChangePoints {
			fmt.Fprintf(w, "  change at batch %d%s: %s\n", cp.Batch, between(cp), ChangeString(cp))
		}
		if s.Regressed {
			fmt.Fprintf(w, "  REGRESSED: the newest change, at batch %d, is a regression that no later point reverts\n",
				s.ChangePoints[len(s.ChangePoints)-1].Batch)
		}
	}
	if r := h.Regressions(); len(r) > 0 {
		fmt.Fprintf(w, "\n%d regressed: %s\n", len(r), regressionNames(r))
	} else {
		fmt.Fprintf(w, "\nno series regressed\n")
	}
}

func historyMarkdown(w io.Writer, h *history.History) {
	fmt.Fprintf(w, "### Benchmark history\n\n%s.\n\n", Summary(h))
	if r := h.Regressions(); len(r) > 0 {
		fmt.Fprintf(w, "**%d regressed:**\n\n", len(r))
		for _, s := range r {
			cp := s.ChangePoints[len(s.ChangePoints)-1]
			fmt.Fprintf(w, "- `%s` at batch %d%s: %s\n", s.Name(), cp.Batch, between(cp), ChangeString(cp))
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "No series regressed.\n\n")
	}
	fmt.Fprintf(w, "| Benchmark | Last | Trend | Change points |\n|---|---:|---|---|\n")
	for i := range h.Series {
		s := &h.Series[i]
		last, ok := s.Last()
		lastCell := "no successful run"
		if ok {
			lastCell = fmt.Sprintf("%s (batch %d)", ScoreString(last, s.Unit), last.Batch)
		}
		var cps []string
		for _, cp := range s.ChangePoints {
			mark := ""
			if cp.Direction == history.Regression {
				mark = "**"
			}
			cps = append(cps, fmt.Sprintf("%sbatch %d%s: %s%s", mark, cp.Batch, between(cp), ChangeString(cp), mark))
		}
		if len(cps) == 0 {
			cps = []string{"none"}
		}
		fmt.Fprintf(w, "| `%s` | %s | %s %s | %s |\n", pipeEscape(s.Name()), pipeEscape(lastCell),
			Sparkline(s.Points, 24), pipeEscape(Trend(s)), pipeEscape(strings.Join(cps, "<br>")))
	}
}

// pipeEscape keeps a table cell one cell.
func pipeEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// ScoreString is "score ± error unit".
func ScoreString(p history.Point, unit string) string {
	s := Num(float64(p.Score))
	if p.Error.Valid() {
		s += " ± " + Num(float64(p.Error))
	}
	return s + " " + unit
}

// ChangeString is a change point's magnitude, interval, p-value and
// direction: "+8.0 % [+5.9 %, +10.1 %], p = 2.1e-05, regression".
func ChangeString(cp history.ChangePoint) string {
	ci := ""
	if cp.ChangeCI[0].Valid() {
		ci = fmt.Sprintf(" [%s, %s]", SignedPercent(float64(cp.ChangeCI[0])), SignedPercent(float64(cp.ChangeCI[1])))
	}
	return fmt.Sprintf("%s%s, p = %s, %s", SignedPercent(float64(cp.Change)), ci, Num(float64(cp.P)), cp.Direction)
}

// between names the points either side of a change: labels, revisions,
// or nothing when neither is known.
func between(cp history.ChangePoint) string {
	a, b := cp.LabelBefore, cp.LabelAfter
	if a == "" && b == "" {
		a, b = history.ShortRevision(cp.RevisionBefore), history.ShortRevision(cp.RevisionAfter)
	}
	if a == "" && b == "" {
		return ""
	}
	s := " (" + orUnknown(a) + " → " + orUnknown(b)
	if cp.LabelBefore != "" && cp.RevisionBefore != cp.RevisionAfter {
		s += ", rev " + orUnknown(history.ShortRevision(cp.RevisionBefore)) + " → " + orUnknown(history.ShortRevision(cp.RevisionAfter))
	}
	return s + ")"
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func pointTag(p history.Point) string {
	var parts []string
	if p.Label != "" {
		parts = append(parts, p.Label)
	}
	if p.Revision != "" {
		parts = append(parts, "rev "+history.ShortRevision(p.Revision))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// Trend says how the level moved: the newest level against the first,
// when the series changed, and the number of points.
func Trend(s *history.Series) string {
	n := fmt.Sprintf("%d points", len(s.Points))
	if len(s.ChangePoints) == 0 {
		d := float64(s.Detectable)
		switch {
		case !s.Detectable.Valid():
			return n + ", too few to tell a change"
		case s.TooNoisy:
			return fmt.Sprintf("%s, too noisy to tell: no change smaller than ±%s could be told apart", n, Percent2(d))
		}
		return fmt.Sprintf("%s, steady: a change of ±%s would show", n, Percent2(d))
	}
	first := float64(s.ChangePoints[0].MeanBefore)
	now := float64(s.ChangePoints[len(s.ChangePoints)-1].MeanAfter)
	if first == 0 {
		return n
	}
	return fmt.Sprintf("%s, level %s since batch %d", n, SignedPercent((now-first)/first), s.Points[0].Batch)
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws the newest max points as a line of block characters,
// from the lowest score to the highest.
func Sparkline(points []history.Point, maxPoints int) string {
	if len(points) > maxPoints {
		points = points[len(points)-maxPoints:]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = math.Min(lo, float64(p.Score)), math.Max(hi, float64(p.Score))
	}
	out := make([]rune, len(points))
	for i, p := range points {
		k := len(sparks) / 2
		if hi > lo {
			k = int(math.Round((float64(p.Score) - lo) / (hi - lo) * float64(len(sparks)-1)))
		}
		out[i] = sparks[k]
	}
	return string(out)
}

func batchList(b []int) string {
	parts := make([]string, len(b))
	for i, n := range b {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

func regressionNames(r []*history.Series) string {
	names := make([]string, len(r))
	for i, s := range r {
		names[i] = s.Name()
	}
	return strings.Join(names, ", ")
}
