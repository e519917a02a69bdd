// Package format renders what benchspec writes — a report.Report, a
// comparison (compare.Result, of two reports or of ab's two builds) and a
// nightly history (history.History) — in the formats a reader asks for.
// Each format is one type in a file of its name (text, markdown, csv,
// json, jmh, gobench); its methods say what it renders (Renderer,
// ComparisonRenderer, ABRenderer, HistoryRenderer), and a method it lacks
// says it cannot. Builtin names them all; every command's --format finds
// its renderer there (Find), and its usage and errors list the names
// (Names). The HTML page is report/format/html's, which only
// cmd/benchspec links and adds to the list.
//
// The report tables (text, markdown, csv, and html) read the same rows
// and footnotes (Rows): a failed run is a "FAILED [n]" row whose reason
// is footnote n, and each diagnostic a footnote after the unit. A number
// that does not exist is absent in every format, never NaN or a string.
// Numbers are written in one place (numbers.go), the tables drawn by
// tablewriter (table.go).
package format

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/internal/suggest"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/history"
)

// Renderer writes a report.
type Renderer interface {
	Render(w io.Writer, r *report.Report) error
}

// ComparisonRenderer writes a comparison of two reports (benchspec
// compare).
type ComparisonRenderer interface {
	Comparison(w io.Writer, c *compare.Result) error
}

// ABRenderer writes what benchspec ab found: the comparison, then the
// two builds' reports.
type ABRenderer interface {
	AB(w io.Writer, c *compare.Result, base, next *report.Report) error
}

// HistoryRenderer writes a nightly history (benchspec history).
type HistoryRenderer interface {
	History(w io.Writer, h *history.History) error
}

// List maps each format's name to its type, whose methods say what it
// renders.
type List map[string]any

// Builtin returns this package's formats; cmd/benchspec adds html.
func Builtin() List {
	return List{"text": Text{}, "markdown": Markdown{}, "json": JSON{}, "csv": CSV{}, "jmh": JMH{}, "gobench": GoBench{}}
}

// Names returns the names of the formats of l that render what T
// renders, sorted.
func Names[T any](l List) []string {
	var names []string
	for name, f := range l {
		if _, ok := f.(T); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Find returns the format of l named name as T, or an error that lists
// the formats that render what T renders, with the nearest name when
// name looks mistyped.
func Find[T any](l List, name string) (T, error) {
	f, ok := l[name].(T)
	if ok {
		return f, nil
	}
	names := Names[T](l)
	msg := fmt.Sprintf("unknown format %q (valid: %s)", name, strings.Join(names, ", "))
	if s := suggest.Typo(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return f, errors.New(msg)
}
