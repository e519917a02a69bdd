package format

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/benchspec/benchspec/report"
)

// precision is JMH's score precision: three decimals.
const precision = 3

// Score formats a score like JMH's ScoreFormatter: three decimals,
// or "≈ 10⁻⁴" where three decimals would print a misleading 0.000;
// "n/a" when the score does not exist.
func Score(f report.Float) string {
	v := float64(f)
	switch {
	case !f.Valid():
		return "n/a"
	case v == 0:
		return "≈ 0"
	case math.Abs(v) < 0.5/math.Pow10(precision):
		return "≈ 10" + superscript(fmt.Sprint(int(math.Round(math.Log10(math.Abs(v))))))
	}
	return fmt.Sprintf("%.*f", precision, v)
}

// Error formats an error half-width like JMH: three decimals, at
// least 0.001 so that a tiny error does not read as none; "" when there
// is no error (n ≤ 1).
func Error(f report.Float) string {
	if !f.Valid() {
		return ""
	}
	return fmt.Sprintf("%.*f", precision, math.Max(float64(f), 1/math.Pow10(precision)))
}

var superscripts = strings.NewReplacer(
	"-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴",
	"5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")

func superscript(s string) string { return superscripts.Replace(s) }

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
