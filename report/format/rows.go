package format

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchspec/benchspec/report"
)

// Row is one line of a result table, the same in every table format
// (text, markdown, csv, html): a run's primary metric, one of its
// secondary metrics, or a failed run.
type Row struct {
	Run    *report.Run
	Name   string         // the benchmark, or "benchmark:metric" for a secondary metric
	Metric *report.Metric // nil for a failed run
	// Secondary is set for secondary metrics; SampleQuantile for sample
	// mode's percentile metrics, which have no count of their own.
	Secondary, SampleQuantile bool
	Note                      int   // 1-based footnote of a failed run, 0 otherwise
	Marks                     []int // footnotes of the run's diagnostics, on its primary row
}

// Unit is the row's unit: the metric's, or the mode's for a failed run.
func (r Row) Unit() string {
	if r.Metric != nil {
		return r.Metric.ScoreUnit
	}
	return r.Run.Mode.Unit(r.Run.Settings.TimeUnit)
}

// Header is the header of the result table: Benchmark, a "(name)" column
// per parameter, Mode, Cnt, Score, Error, Units.
func Header(params []string) []string {
	header := []string{"Benchmark"}
	for _, n := range params {
		header = append(header, "("+n+")")
	}
	return append(header, "Mode", "Cnt", "Score", "Error", "Units")
}

// Cells formats the row in Header's columns, like JMH's table: three
// decimals, the error as "± 0.123" — or in words when it is as wide as
// the score (ErrorWords) —, "FAILED [n]" for a failed run (SKIPPED for a
// skipped one), the unit followed by the marks of the run's diagnostics
// ("ns/op [2,3]").
func (r Row) Cells(params []string) []string {
	cells := []string{r.Name}
	for _, n := range params {
		cells = append(cells, r.Run.Params[n])
	}
	cells = append(cells, r.Run.Mode.String())
	switch m := r.Metric; {
	case m == nil:
		cells = append(cells, "", fmt.Sprintf("%s [%d]", NoScoreLabel(r.Run), r.Note), "")
	case r.SampleQuantile:
		cells = append(cells, "", Score(m.Score), errorCell(m.ScoreError, m.Score))
	case r.Secondary:
		cells = append(cells, strconv.Itoa(m.Count), Score(m.Score), errorCell(m.ScoreError, m.Score))
	default:
		cells = append(cells, strconv.Itoa(m.Count), Score(m.Score), ErrorWords(m))
	}
	unit := r.Unit()
	if len(r.Marks) > 0 {
		marks := make([]string, len(r.Marks))
		for i, m := range r.Marks {
			marks[i] = strconv.Itoa(m)
		}
		unit += " [" + strings.Join(marks, ",") + "]"
	}
	return append(cells, unit)
}

// errorCell is the error half-width of score as a cell: "± 0.123", or "".
func errorCell(e, score report.Float) string {
	if s := Error(e, score); s != "" {
		return "± " + s
	}
	return ""
}

// ErrorWords is the Error cell of a primary metric: "± 0.123", or, when
// the error is as wide as the score or wider, words for what the number
// would hide. "3.828 ± 25.163" reads as a broken tool; what happened is
// one of two things:
//
//   - The forks disagree: three or more fork means spread over more than
//     disagreeSpread of the score. Their range is the honest summary:
//     "(forks disagree: 1.430–1.950)", in the score's decimals.
//   - Too few forks: the spread is small, but with two forks the 99.9 %
//     interval's t is 636.6: "± 25.163 (too few forks)".
//
// The JSON, CSV and JMH outputs keep the numbers.
func ErrorWords(m *report.Metric) string {
	e, score := m.ScoreError, m.Score
	if !e.Valid() || !score.Valid() || score == 0 || math.Abs(float64(e)) < math.Abs(float64(score)) {
		return errorCell(e, score)
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	if m.Variance != nil {
		for _, v := range m.Variance.ForkMeans {
			if v.Valid() {
				lo, hi, n = math.Min(lo, float64(v)), math.Max(hi, float64(v)), n+1
			}
		}
	}
	if n >= 3 && (hi-lo)/math.Abs(float64(score)) > disagreeSpread {
		return "(forks disagree: " + Like(report.Float(lo), score) + "–" + Like(report.Float(hi), score) + ")"
	}
	return errorCell(e, score) + " (too few forks)"
}

// disagreeSpread is the least spread of the fork means, relative to the
// score, that reads as forks that disagree: FORKS_DISAGREE's default
// spread. With three forks or more an error as wide as the score needs
// a spread of about 9 % (t ≤ 31.6 over √3), so below it the width comes
// from the number of forks.
const disagreeSpread = 0.05

// Note is a footnote of a result table: a failed run's reason, or one
// diagnostic of a run.
type Note struct {
	N     int
	Label string // the run, as RunLabel names it
	// Reason is the note as a table shows it, its first clause within
	// MaxNote characters; Full is all of it, as the JSON report has it.
	Reason, Full string
	// Diagnostic is set for a diagnostic's note, which the text table
	// wraps; a failure's reason stays on one line.
	Diagnostic bool
}

// MaxNote bounds a footnote, "[n] label: reason", in characters: one or
// two lines of a terminal. A table of 31 footnotes of up to 827
// characters buried itself; the detail is in the JSON report (and in the
// text table of run --verbose).
const MaxNote = 180

// String formats the note: "[1] label: reason".
func (n Note) String() string { return fmt.Sprintf("[%d] %s: %s", n.N, n.Label, n.Reason) }

// FullString is String with the reason in full.
func (n Note) FullString() string { return fmt.Sprintf("[%d] %s: %s", n.N, n.Label, n.Full) }

// Shortened reports whether Reason leaves part of Full out.
func (n Note) Shortened() bool { return n.Reason != n.Full }

// newNote makes note n of the run labelled label, its Reason the first
// clause of full without its parenthesized details (up to "; " or ". "),
// cut at a word within MaxNote characters of the whole note.
func newNote(n int, label, full string, diagnostic bool) Note {
	note := Note{N: n, Label: label, Reason: full, Full: full, Diagnostic: diagnostic}
	room := MaxNote - utf8.RuneCountInString(fmt.Sprintf("[%d] %s: ", n, label))
	short := full
	if diagnostic {
		short = withoutAsides(full)
	}
	for _, sep := range []string{"; ", ". "} {
		if i := strings.Index(short, sep); i > 0 {
			short = short[:i]
		}
	}
	if utf8.RuneCountInString(short) > room {
		r := []rune(short)[:max(room-1, 0)]
		cut := string(r)
		if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
			cut = cut[:i]
		}
		short = strings.TrimRight(cut, " ,;:") + "…"
	}
	note.Reason = short
	return note
}

// withoutAsides is s without its parenthesized asides, "(median; mean
// 0.29, …)": the evidence a footnote leaves to the JSON report. Brackets
// inside them nest; an unbalanced "(" keeps the rest.
func withoutAsides(s string) string {
	var b strings.Builder
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			if depth == 0 {
				b.WriteString(s[start:i])
			}
			depth++
		case ')':
			if depth > 0 {
				if depth--; depth == 0 {
					start = i + 1
				}
			}
		}
	}
	if depth > 0 {
		return s
	}
	b.WriteString(s[start:])
	return strings.Join(strings.Fields(strings.ReplaceAll(b.String(), " ,", ",")), " ")
}

// Rows returns the rows of r in run order — each run's primary metric
// followed by its secondary metrics by name — and the footnotes: a failed
// run's reason, and each diagnostic of a run, marked after the unit of
// its primary row.
func Rows(r *report.Report) ([]Row, []Note) {
	var rows []Row
	var notes []Note
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.NoScore() {
			n := newNote(len(notes)+1, RunLabel(run), run.Outcome(), false)
			notes = append(notes, n)
			rows = append(rows, Row{Run: run, Name: run.DisplayName(), Note: n.N})
			if !run.NoTime() {
				continue
			}
		} else {
			primary := Row{Run: run, Name: run.DisplayName(), Metric: run.Primary}
			for _, d := range run.Diagnostics {
				n := newNote(len(notes)+1, RunLabel(run), DiagnosticLine(d), true)
				notes = append(notes, n)
				primary.Marks = append(primary.Marks, n.N)
			}
			rows = append(rows, primary)
		}
		for _, name := range sortedKeys(run.SecondaryMetrics) {
			m := run.SecondaryMetrics[name]
			rows = append(rows, Row{Run: run, Name: run.DisplayName() + ":" + name, Metric: &m, Secondary: true,
				SampleQuantile: run.Mode.Samples() && report.IsQuantileName(name)})
		}
	}
	return rows, notes
}

// ParamNames is the union of the runs' parameter names, sorted: the
// "(name)" columns of the tables.
func ParamNames(runs []report.Run) []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range runs {
		for n := range r.Params {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// RunLabel names a run in messages: "name (size = 10) avgt".
func RunLabel(r *report.Run) string {
	if p := Params(r.Params); p != "" {
		return r.DisplayName() + " " + p + " " + r.Mode.String()
	}
	return r.DisplayName() + " " + r.Mode.String()
}

// ComplexityLine is a complexity fit in a line, which the text and
// Markdown tables print under the sweep and the HTML page under its
// chart: "linear avgt: n (…) over n=1000–16000, told from nlogn".
func ComplexityLine(c *report.Complexity) string {
	return RunLabel(&report.Run{Benchmark: c.Benchmark, Params: c.Params, Mode: c.Mode}) + ": " + c.Summary()
}

// DiagnosticLine is a diagnostic in one line: "warning CODE: message".
func DiagnosticLine(d report.Diagnostic) string {
	return d.Severity + " " + d.Code + ": " + OneLine(d.Message)
}

// CheckDiagnostics are the diagnostics of the environment check, if any.
func CheckDiagnostics(r *report.Report) []report.Diagnostic {
	if r.Env.Check == nil {
		return nil
	}
	return r.Env.Check.Diagnostics
}

// envLine summarises where the numbers were measured in one line:
// "go1.26.8 linux/amd64, Intel(R) Xeon(R) …, 8 CPUs, GOMAXPROCS 8".
func envLine(e report.Env) string {
	parts := []string{e.GoVersion + " " + e.GOOS + "/" + e.GOARCH}
	if cpu := strings.TrimSpace(e.CPU); cpu != "" { // brand strings may end in spaces
		parts = append(parts, cpu)
	}
	parts = append(parts, fmt.Sprintf("%d CPUs, GOMAXPROCS %d", e.NumCPU, e.GOMAXPROCS))
	return strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NoScoreLabel stands in a table for the score of a run without one:
// FAILED, or SKIPPED for a benchmark that skipped itself.
func NoScoreLabel(run *report.Run) string {
	switch {
	case run.Skipped():
		return "SKIPPED"
	case run.NoTime():
		return "NO TIME"
	}
	return "FAILED"
}
