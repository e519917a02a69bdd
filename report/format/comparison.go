package format

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
)

// The comparison's table and the lists under it are drawn alike in text
// and markdown (Text.Comparison, Markdown.Comparison): the same columns
// and words, tablewriter's look of each.

var comparisonHeader = []string{"Benchmark", "Params", "Mode", "Units", "Base", "New", "Change", "CI", "p", "p rank", "p adj", "Verdict"}

// numeric names comparisonHeader's columns of numbers, which are
// right-aligned.
var numeric = map[string]bool{"Base": true, "New": true, "Change": true, "p": true, "p rank": true}

func writeComparison(w io.Writer, res *compare.Result, markdown bool) error {
	var b strings.Builder
	intro := introText(res)
	ci := fmt.Sprintf("CI (%s)", Percent(1-res.Alpha))
	rows := [][]string{}
	paired := res.Test == compare.PairedTest
	for _, p := range res.Pairs {
		row := []string{p.Name(), params(p.Params), p.Mode.String(), p.Unit, side(p.Base), side(p.New),
			change(p.Change), interval(p.ChangeCI), pValue(p.P), pValue(p.PRank), pValue(p.PAdjusted), verdict(p)}
		if paired {
			// No rank test; how many pairs the run took and why it
			// stopped instead.
			row[9] = strings.TrimSpace(fmt.Sprintf("%d %s", p.Base.Forks, p.Stop))
		}
		rows = append(rows, row)
	}
	head := append([]string{}, comparisonHeader...)
	head[7] = ci
	if paired {
		head[9] = "Pairs"
	}
	b.WriteString(intro + "\n\n")
	if markdown {
		for _, r := range rows {
			for i := range r {
				r[i] = pipeEscape(r[i])
			}
		}
	}
	align := make([]Align, len(head))
	for i, h := range head {
		if numeric[h] {
			align[i] = Right
		}
	}
	table := TextTable(head, rows, align...)
	if markdown {
		table = MarkdownTable(head, rows, align...)
	}
	b.WriteString(table)
	b.WriteString(whereText(res, tableWidth(table)))
	for _, only := range []struct {
		what string
		runs []compare.Run
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
		res.Count(compare.Regression), res.Count(compare.Improvement), res.Count(compare.Unchanged), res.Count(compare.Inconclusive), res.Count(compare.Failed),
		res.BaseName, len(res.OnlyBase), res.NewName, len(res.OnlyNew))
	// Run names, params and file names come from the reports.
	_, err := io.WriteString(w, termsafe.String(b.String()))
	return err
}

// whereText lists, under the table, where the CPU time of each
// explained run went (ab --explain, compare --explain): its functions
// whose flat time per op changed beyond the profiles' sampling error,
// largest first, each line no wider than the table.
func whereText(res *compare.Result, width int) string {
	var b strings.Builder
	for _, p := range res.Pairs {
		switch {
		case p.WhereNote != "":
			fmt.Fprintf(&b, "  - %s: not explained: %s\n", label(p.Run), p.WhereNote)
		case p.Where == nil:
		case p.Where.WithinNoise:
			fmt.Fprintf(&b, "  - %s: no function's change exceeds the profiles' sampling error (%d and %d samples); none named\n",
				label(p.Run), p.Where.BaseSamples, p.Where.NewSamples)
		default:
			fmt.Fprintf(&b, "  - %s (%d and %d samples):\n", label(p.Run), p.Where.BaseSamples, p.Where.NewSamples)
			for _, f := range p.Where.Funcs {
				line := fmt.Sprintf("      %+9.4g ns/op flat (%s), %+9.4g cum  ", f.DeltaFlat, SignedPercent(f.Share), f.DeltaCum)
				fmt.Fprintf(&b, "%s%s\n", line, cutLeft(f.Name, width-len(line)))
			}
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\nWhere the time went (CPU time per op, new - base: flat, as a share of base, and cumulative; --explain):\n" + b.String()
}

// tableWidth is the width of a drawn table's widest line.
func tableWidth(table string) int {
	w := 0
	for line := range strings.Lines(table) {
		w = max(w, len([]rune(strings.TrimRight(line, "\n"))))
	}
	return w
}

// cutLeft keeps the end of a function's name, its most telling part,
// within width runes (at least 20).
func cutLeft(name string, width int) string {
	r := []rune(name)
	if width = max(width, 20); len(r) <= width {
		return name
	}
	return "…" + string(r[len(r)-width+1:])
}

// introText says how the pairs were judged: the tests, the rule, the
// family's correction, and which pairs the rank test could not check.
func introText(res *compare.Result) string {
	if res.Test == compare.PairedTest {
		return pairedIntro(res)
	}
	tests := "Welch's t-test and the Mann-Whitney U test on fork means"
	s := fmt.Sprintf("Comparing %s with %s (%s): a change whose %s confidence interval lies beyond ±%s, and whose rank test is significant too (p rank < %g) where it can be, is a regression or an improvement; within it unchanged; otherwise inconclusive (not shown either way).",
		res.BaseName, res.NewName, tests, Percent(1-res.Alpha), Percent(res.Threshold), res.Alpha)
	if res.Threshold == 0 {
		s = fmt.Sprintf("Comparing %s with %s (%s): a change whose %s confidence interval excludes 0, and whose rank test is significant too (p rank < %g) where it can be, is a regression or an improvement; otherwise inconclusive (no change shown: with threshold 0 nothing can be shown unchanged).",
			res.BaseName, res.NewName, tests, Percent(1-res.Alpha), res.Alpha)
	}
	switch {
	case res.Correction == compare.Holm && res.Family > 1:
		s += fmt.Sprintf(" The %d tested runs are one family: Holm's correction keeps the chance of any false regression or improvement among them at %g (p adj, the adjusted p of a change beyond the threshold, must be below %g).", res.Family, res.Alpha, res.Alpha)
	case res.Correction == compare.NoCorrection && res.Family > 1:
		s += fmt.Sprintf(" No correction for the %d tested runs: each is judged at %g on its own, so about %.2g of them may be false verdicts when nothing changed.", res.Family, res.Alpha, res.Alpha*float64(res.Family))
	}
	if n := unchecked(res); n > 0 {
		s += fmt.Sprintf(" For %d of them the rank test cannot reach the level it would need with the samples they have: those are judged by the parametric test alone (see below).", n)
	}
	return s
}

// pairedIntro says how ab judged its runs: pairs of forks, the
// confidence sequence, the rule against the threshold, the family.
func pairedIntro(res *compare.Result) string {
	s := fmt.Sprintf("Comparing %s with %s (forks of both builds alternated in one batch, paired; the change is the Huber centre of the pairs' log ratios, its interval a %s confidence sequence, valid however often the batch looked before it stopped): ",
		res.BaseName, res.NewName, Percent(1-res.Alpha))
	if res.Threshold == 0 {
		s += "a change whose interval excludes 0 is a regression or an improvement; otherwise inconclusive."
	} else {
		s += fmt.Sprintf("an interval within ±%s is unchanged; else one wholly above or below 0 is a regression or an improvement; otherwise inconclusive.",
			Percent(res.Threshold))
	}
	if res.Correction == compare.Bonferroni && res.Family > 1 {
		s += fmt.Sprintf(" The %d tested runs are one family: Bonferroni (each at %g / %d) keeps the chance of any false verdict among them at %g.", res.Family, res.Alpha, res.Family, res.Alpha)
	}
	return s
}

// unchecked counts the tested pairs that the rank test could not check.
func unchecked(res *compare.Result) int {
	n := 0
	for _, p := range res.Pairs {
		if p.PVerdict.Valid() && !p.RankTakesPart {
			n++
		}
	}
	return n
}

func label(r compare.Run) string {
	if p := params(r.Params); p != "" {
		return r.Name() + " (" + p + ") " + r.Mode.String()
	}
	return r.Name() + " " + r.Mode.String()
}

func params(m map[string]string) string {
	var kv []string
	for _, k := range sortedKeys(m) {
		kv = append(kv, k+"="+m[k])
	}
	return strings.Join(kv, " ")
}

func side(s compare.Side) string {
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
		return Score(s.Score)
	}
	return Score(s.Score) + " ± " + Error(s.Error, s.Score)
}

// change is a signed percentage, "" where there is none.
func change(f report.Float) string {
	if math.IsNaN(float64(f)) {
		return ""
	}
	return SignedPercent(float64(f))
}

func interval(ci [2]report.Float) string {
	if !ci[0].Valid() || !ci[1].Valid() {
		return ""
	}
	return "[" + change(ci[0]) + ", " + change(ci[1]) + "]"
}

func pValue(p report.Float) string {
	if !p.Valid() {
		return ""
	}
	return fmt.Sprintf("%.3f", float64(p))
}

func verdict(p compare.Pair) string {
	switch p.Verdict {
	case compare.Regression, compare.Failed:
		return strings.ToUpper(string(p.Verdict))
	}
	return string(p.Verdict)
}

// writeAB writes ab's comparison, then each build's report under a
// heading (a format string of the build's name).
func writeAB(w io.Writer, f interface {
	ComparisonRenderer
	Renderer
}, heading string, c *compare.Result, base, next *report.Report) error {
	if err := f.Comparison(w, c); err != nil {
		return err
	}
	for _, side := range []struct {
		name string
		rep  *report.Report
	}{{"Base " + c.BaseName, base}, {"New " + c.NewName, next}} {
		fmt.Fprintf(w, heading, side.name)
		if err := f.Render(w, side.rep); err != nil {
			return err
		}
	}
	return nil
}
