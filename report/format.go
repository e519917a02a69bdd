package report

import (
	"fmt"
	"math"
	"strings"
)

// precision is JMH's score precision: three decimals.
const precision = 3

// formatScore formats a score like JMH's ScoreFormatter: three decimals,
// or "≈ 10⁻⁴" where three decimals would print a misleading 0.000;
// "n/a" when the score does not exist.
func formatScore(f Float) string {
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

// formatError formats an error half-width like JMH: three decimals, at
// least 0.001 so that a tiny error does not read as none; "" when there
// is no error (n ≤ 1).
func formatError(f Float) string {
	if !f.Valid() {
		return ""
	}
	return fmt.Sprintf("%.*f", precision, math.Max(float64(f), 1/math.Pow10(precision)))
}

var superscripts = strings.NewReplacer(
	"-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴",
	"5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")

func superscript(s string) string { return superscripts.Replace(s) }

// paramString formats params like JMH's run log: "(a = 1, size = 10)",
// names sorted; "" when there are none.
func paramString(params map[string]string) string {
	if len(params) == 0 {
		return ""
	}
	parts := make([]string, 0, len(params))
	for _, name := range sortedKeys(params) {
		parts = append(parts, name+" = "+params[name])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
