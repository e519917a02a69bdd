package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// row is one line of the result table.
type row struct {
	id        string // the item number, e.g. "2"
	measure   string
	benchspec string // what benchspec measured
	reference string // what it is compared with
	figure    string // the ratio or figure the target is about
	target    string // "" when the item has none
	verdict   string // verdictMet, verdictMissed or ""
}

const (
	verdictMet    = "met"
	verdictMissed = "**missed**"
)

func verdict(ok bool) string {
	if ok {
		return verdictMet
	}
	return verdictMissed
}

// results is the table and the notes under it.
type results struct {
	rows  []row
	notes []string
}

func (r *results) add(x row) { r.rows = append(r.rows, x) }

func (r *results) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// writeMarkdown prints the table, then the notes as a list.
func (r *results) writeMarkdown(w io.Writer) {
	fmt.Fprintln(w, "| # | measure | benchspec | reference | figure | target | result |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, x := range r.rows {
		cells := []string{x.id, x.measure, x.benchspec, x.reference, x.figure, x.target, x.verdict}
		for i, c := range cells {
			if c == "" {
				c = "—"
			}
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if len(r.notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range r.notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
	}
}

// ns formats nanoseconds with four significant digits in a fitting unit.
func ns(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "n/a"
	case a >= 1e9:
		return sig(v/1e9) + " s"
	case a >= 1e6:
		return sig(v/1e6) + " ms"
	case a >= 1e3:
		return sig(v/1e3) + " µs"
	}
	return sig(v) + " ns"
}

// sig prints v with four significant digits, without exponent.
func sig(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 10:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func ratio(v float64) string { return fmt.Sprintf("%.3f", v) }

func pct(v float64) string { return fmt.Sprintf("%+.1f %%", 100*v) }
