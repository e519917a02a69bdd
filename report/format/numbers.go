package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/benchspec/benchspec/report"
)

// precision is JMH's score precision: three decimals.
const precision = 3

// Score formats a score like JMH's ScoreFormatter, three decimals, except
// where three decimals would mislead: an exact zero is "0" (the JSON's
// 0, not "≈ 0"), and a score too small for three decimals gets as many
// as three significant digits need ("0.000123"), or an exponent below
// 10⁻⁴, where a row of zeros is hard to read ("1.23e-05"); "n/a" when
// the score does not exist.
func Score(f report.Float) string {
	v := float64(f)
	switch {
	case !f.Valid():
		return "n/a"
	case v == 0:
		return "0"
	}
	return fixed(v, decimals(f))
}

// Error formats the error half-width of score in the score's decimals,
// at least one unit of the last one so that a tiny error does not read
// as none — so a score with more decimals gets a finer error, never one
// that reads larger than the score only because it was rounded up. An
// exact zero is "0", as the JSON has it; "" when there is no error
// (n ≤ 1).
func Error(err, score report.Float) string {
	switch {
	case !err.Valid():
		return ""
	case err == 0:
		return "0"
	}
	d := decimals(score)
	if d > maxDecimals { // an exponent: no unit of a last decimal to floor at
		return fixed(float64(err), d)
	}
	return fixed(math.Max(float64(err), math.Pow10(-d)), d)
}

// Like formats v, a value that goes with score (its min, max, stdev or
// interval bound), in the score's decimals, so that a summary line reads
// in one precision; "0" for an exact zero, "n/a" when v does not exist.
func Like(v, score report.Float) string {
	switch {
	case !v.Valid():
		return "n/a"
	case v == 0:
		return "0"
	}
	return fixed(float64(v), decimals(score))
}

// maxDecimals bounds the decimals of a tiny score: beyond, fixed writes
// an exponent rather than a row of zeros ("0.0000105 ± 0.0000898" reads
// worse than "1.05e-05 ± 8.98e-05").
const maxDecimals = 6

// decimals is how many decimals score needs: JMH's three, or as many as
// three significant digits of a smaller score need.
func decimals(score report.Float) int {
	v := math.Abs(float64(score))
	if !score.Valid() || v == 0 || v >= 0.5/math.Pow10(precision) {
		return precision
	}
	return precision - 1 - int(math.Floor(math.Log10(v)))
}

// maxFixed bounds a large value written with decimals: from it on, fixed
// writes an exponent rather than a row of digits (1e308 would be 309 of
// them, all but the first sixteen noise).
const maxFixed = 1e15

// fixed writes v with d decimals, or with three significant digits and
// an exponent when d passes maxDecimals or v is maxFixed or more.
func fixed(v float64, d int) string {
	if d > maxDecimals || math.Abs(v) >= maxFixed {
		return strconv.FormatFloat(v, 'e', precision-1, 64)
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// Params formats params like JMH's run log: "(a = 1, size = 10)",
// names sorted; "" when there are none.
func Params(params map[string]string) string {
	if len(params) == 0 {
		return ""
	}
	parts := make([]string, 0, len(params))
	for _, name := range sortedKeys(params) {
		parts = append(parts, name+" = "+params[name])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Duration writes d in the largest unit that holds it exactly, like
// JMH's TimeValue: "1 s", "500 ms", "10 min".
func Duration(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{{time.Hour, "hr"}, {time.Minute, "min"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}}
	for _, u := range units {
		if d != 0 && d%u.d == 0 {
			return fmt.Sprintf("%d %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%d ns", d)
}

// OneLine puts s on one line, runs of white space made one space.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Wrap breaks s into lines of at most width columns at spaces (a longer
// word stays whole), indenting every line after the first.
func Wrap(s, indent string, width int) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			// the first word starts the first line
		case col+1+n > width && !strings.HasPrefix(word, "%"): // "10 %" stays whole
			b.WriteString("\n" + indent)
			col = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		if i == 0 {
			b.WriteString(strings.Repeat(" ", len(s)-len(strings.TrimLeft(s, " "))))
			col = len(s) - len(strings.TrimLeft(s, " "))
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
}

// Num formats a number with four significant digits, without an
// exponent for the values benchmarks usually have.
func Num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e-3 && math.Abs(v) < 1e9:
		return strconv.FormatFloat(v, 'f', max(0, 3-int(math.Floor(math.Log10(math.Abs(v))))), 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

// Percent2 formats a fraction as a percentage with two significant
// digits, or whole percents from 10 % on: 0.0314 as "3.1%", 0.412 as
// "41%", 6.19 as "619%".
func Percent2(f float64) string {
	if math.Abs(100*f) >= 10 {
		return strconv.FormatFloat(100*f, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(100*f, 'g', 2, 64) + "%"
}

// Percent formats a fraction as a percentage: 0.05 as "5%".
func Percent(f float64) string { return strconv.FormatFloat(100*f, 'g', 4, 64) + "%" }

// SignedPercent formats a fraction as a change: 0.08 as "+8.0%", "n/a"
// for NaN.
func SignedPercent(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*f)
}
