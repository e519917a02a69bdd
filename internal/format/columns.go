package format

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// columns writes a borderless, JMH-like table: the first and last columns
// left-aligned, the others (numbers) right-aligned, two spaces between
// columns, no trailing spaces. Widths are display widths: East Asian wide
// and fullwidth runes take two columns, combining marks none, every other
// rune one ("±" and "≈" included, as a terminal shows them). A line break
// inside a cell would break the table, so it reads as a space.
//
// It is a few lines instead of a table library because the text table is
// linked into every suite binary, and so into every fork: a library's
// package initialisation (tablewriter's took ~2 ms) is paid at the start
// of each fork, inside the time budget of a fork's start-up.
func columns(header []string, rows [][]string) string {
	all := append([][]string{header}, rows...)
	widths := make([]int, len(header))
	for _, row := range all {
		for i, c := range row {
			row[i] = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(c)
			widths[i] = max(widths[i], displayWidth(row[i]))
		}
	}
	var b strings.Builder
	for _, row := range all {
		var line strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-displayWidth(c))
			if i == 0 || i == len(row)-1 {
				line.WriteString(c + pad)
			} else {
				line.WriteString(pad + c)
			}
			line.WriteString("  ")
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.String()
}

// displayWidth is the number of terminal columns s takes.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		case isWide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

func isWide(r rune) bool {
	k := width.LookupRune(r).Kind()
	return k == width.EastAsianWide || k == width.EastAsianFullwidth
}
