package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/internal/table"
	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/report"
)

// Formats are the output formats Write accepts.
var Formats = []string{"text", "markdown", "json"}

// Write writes res to w in format: "text" (an aligned table for a
// terminal), "markdown" (a table for a pull-request comment) or "json"
// (Result as JSON; numbers that do not exist are null).
func Write(w io.Writer, res *Result, format string) error {
	switch format {
	case "text":
		return writeTable(w, res, false)
	case "markdown":
		return writeTable(w, res, true)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	return fmt.Errorf("compare: unknown format %q (valid: %s)", format, strings.Join(Formats, ", "))
}

var header = []string{"Benchmark", "Params", "Mode", "Units", "Base", "New", "Change", "CI", "p", "p rank", "p adj", "Verdict"}

// numeric names header's columns of numbers, which are right-aligned.
var numeric = map[string]bool{"Base": true, "New": true, "Change": true, "p": true, "p rank": true}

// draw draws the comparison as report/format's tables are drawn.
func draw(header []string, rows [][]string, markdown bool) string {
	align := make([]table.Align, len(header))
	for i, h := range header {
		if numeric[h] {
			align[i] = table.Right
		}
	}
	if markdown {
		return table.Markdown(header, rows, align...)
	}
	return table.Text(header, rows, align...)
}

func writeTable(w io.Writer, res *Result, markdown bool) error {
	var b strings.Builder
	intro := introText(res)
	ci := fmt.Sprintf("CI (%g%%)", 100*(1-res.Alpha))
	rows := [][]string{}
	paired := res.Test == PairedTest
	for _, p := range res.Pairs {
		row := []string{p.Name(), params(p.Params), p.Mode.String(), p.Unit, side(p.Base), side(p.New),
			percent(float64(p.Change), true), interval(p.ChangeCI), pValue(p.P), pValue(p.PRank), pValue(p.PAdjusted), verdict(p)}
		if paired {
			// No rank test; how many pairs the run took and why it
			// stopped instead.
			row[9] = strings.TrimSpace(fmt.Sprintf("%d %s", p.Base.Forks, p.Stop))
		}
		rows = append(rows, row)
	}
	head := append([]string{}, header...)
	head[7] = ci
	if paired {
		head[9] = "Pairs"
	}
	b.WriteString(intro + "\n\n")
	if markdown {
		for _, r := range rows {
			for i := range r {
				r[i] = strings.ReplaceAll(r[i], "|", `\|`)
			}
		}
	}
	b.WriteString(draw(head, rows, markdown))
	for _, only := range []struct {
		what string
		runs []Run
	}{{"Only in " + res.BaseName, res.OnlyBase}, {"Only in " + res.NewName, res.OnlyNew}} {
		if len(only.runs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", only.what)
		for _, r := range only.runs {
			fmt.Fprintf(&b, "  - %s\n", label(r))
		}
	}
	for _, n := range res.Notes {
		b.WriteString("\nNote: " + n + ".\n")
	}
	var reasons, notes []string
	for _, p := range res.Pairs {
		if p.Reason != "" {
			reasons = append(reasons, fmt.Sprintf("  - %s: %s", label(p.Run), p.Reason))
		}
		if p.Note != "" {
			notes = append(notes, fmt.Sprintf("  - %s: %s", label(p.Run), p.Note))
		}
	}
	if len(reasons) > 0 {
		b.WriteString("\nInconclusive or not compared:\n" + strings.Join(reasons, "\n") + "\n")
	}
	if len(notes) > 0 {
		b.WriteString("\nDecided by the parametric test alone:\n" + strings.Join(notes, "\n") + "\n")
	}
	fmt.Fprintf(&b, "\nregressions: %d, improvements: %d, unchanged: %d, inconclusive: %d, failed: %d; only in %s: %d, only in %s: %d.\n",
		res.Count(Regression), res.Count(Improvement), res.Count(Unchanged), res.Count(Inconclusive), res.Count(Failed),
		res.BaseName, len(res.OnlyBase), res.NewName, len(res.OnlyNew))
	// Run names, params and file names come from the reports.
	_, err := io.WriteString(w, termsafe.String(b.String()))
	return err
}

// introText says how the pairs were judged: the tests, the rule, the
// family's correction, and which pairs the rank test could not check.
func introText(res *Result) string {
	if res.Test == PairedTest {
		return pairedIntro(res)
	}
	tests := "Welch's t-test and the Mann-Whitney U test on fork means"
	s := fmt.Sprintf("Comparing %s with %s (%s): a change whose %g%% confidence interval lies beyond ±%s, and whose rank test is significant too (p rank < %g) where it can be, is a regression or an improvement; within it unchanged; otherwise inconclusive (not shown either way).",
		res.BaseName, res.NewName, tests, 100*(1-res.Alpha), percent(res.Threshold, false), res.Alpha)
	if res.Threshold == 0 {
		s = fmt.Sprintf("Comparing %s with %s (%s): a change whose %g%% confidence interval excludes 0, and whose rank test is significant too (p rank < %g) where it can be, is a regression or an improvement; otherwise inconclusive (no change shown: with threshold 0 nothing can be shown unchanged).",
			res.BaseName, res.NewName, tests, 100*(1-res.Alpha), res.Alpha)
	}
	switch {
	case res.Correction == Holm && res.Family > 1:
		s += fmt.Sprintf(" The %d tested runs are one family: Holm's correction keeps the chance of any false regression or improvement among them at %g (p adj, the adjusted p of a change beyond the threshold, must be below %g).", res.Family, res.Alpha, res.Alpha)
	case res.Correction == NoCorrection && res.Family > 1:
		s += fmt.Sprintf(" No correction for the %d tested runs: each is judged at %g on its own, so about %.2g of them may be false verdicts when nothing changed.", res.Family, res.Alpha, res.Alpha*float64(res.Family))
	}
	if n := unchecked(res); n > 0 {
		s += fmt.Sprintf(" For %d of them the rank test cannot reach the level it would need with the samples they have: those are judged by the parametric test alone (see below).", n)
	}
	return s
}

// pairedIntro says how ab judged its runs: pairs of forks, the
// confidence sequence, the rule against the threshold, the family.
func pairedIntro(res *Result) string {
	s := fmt.Sprintf("Comparing %s with %s (forks of both builds alternated in one batch, paired; the change is the Huber centre of the pairs' log ratios, its interval a %g%% confidence sequence, valid however often the batch looked before it stopped): ",
		res.BaseName, res.NewName, 100*(1-res.Alpha))
	if res.Threshold == 0 {
		s += "a change whose interval excludes 0 is a regression or an improvement; otherwise inconclusive."
	} else {
		s += fmt.Sprintf("an interval within ±%s is unchanged; else one wholly above or below 0 is a regression or an improvement; otherwise inconclusive.",
			percent(res.Threshold, false))
	}
	if res.Correction == Bonferroni && res.Family > 1 {
		s += fmt.Sprintf(" The %d tested runs are one family: Bonferroni (each at %g / %d) keeps the chance of any false verdict among them at %g.", res.Family, res.Alpha, res.Family, res.Alpha)
	}
	return s
}

// unchecked counts the tested pairs that the rank test could not check.
func unchecked(res *Result) int {
	n := 0
	for _, p := range res.Pairs {
		if p.PVerdict.Valid() && !p.RankTakesPart {
			n++
		}
	}
	return n
}

func label(r Run) string {
	if p := params(r.Params); p != "" {
		return r.Name() + " (" + p + ") " + r.Mode.String()
	}
	return r.Name() + " " + r.Mode.String()
}

func params(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + m[k]
	}
	return strings.Join(keys, " ")
}

func side(s Side) string {
	if !s.Score.Valid() {
		if s.Status == report.StatusSkipped {
			return "SKIPPED"
		}
		if s.Status != report.StatusOK {
			return "FAILED"
		}
		return "n/a"
	}
	if !s.Error.Valid() {
		return score(float64(s.Score))
	}
	return score(float64(s.Score)) + " ± " + scoreError(float64(s.Error), float64(s.Score))
}

// score writes a score as the report's tables do (report/format.Score,
// which this package may not import): three decimals, three significant
// digits when it is smaller, an exponent below 10⁻⁴; "0" for zero.
func score(v float64) string {
	if v == 0 {
		return "0"
	}
	return fixedDecimals(v, decimals(v))
}

// scoreError writes an error in its score's decimals, at least one unit
// of the last one (report/format.Error).
func scoreError(e, v float64) string {
	if e == 0 {
		return "0"
	}
	d := decimals(v)
	if d > 6 {
		return fixedDecimals(e, d)
	}
	return fixedDecimals(math.Max(e, math.Pow10(-d)), d)
}

// decimals is three, or as many as three significant digits of v need.
func decimals(v float64) int {
	v = math.Abs(v)
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) || v >= 0.0005 {
		return 3
	}
	return 2 - int(math.Floor(math.Log10(v)))
}

// fixedDecimals writes v with d decimals, or three significant digits and
// an exponent beyond 6 decimals.
func fixedDecimals(v float64, d int) string {
	if d > 6 {
		return strconv.FormatFloat(v, 'e', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

func percent(f float64, sign bool) string {
	switch {
	case f != f:
		return ""
	case sign:
		return fmt.Sprintf("%+.1f%%", 100*f)
	}
	return fmt.Sprintf("%g%%", 100*f)
}

func interval(ci [2]report.Float) string {
	if !ci[0].Valid() || !ci[1].Valid() {
		return ""
	}
	return "[" + percent(float64(ci[0]), true) + ", " + percent(float64(ci[1]), true) + "]"
}

func pValue(p report.Float) string {
	if !p.Valid() {
		return ""
	}
	return fmt.Sprintf("%.3f", float64(p))
}

func verdict(p Pair) string {
	switch p.Verdict {
	case Regression, Failed:
		return strings.ToUpper(string(p.Verdict))
	}
	return string(p.Verdict)
}
