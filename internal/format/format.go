// Package format renders a report.Report in the formats a reader asks
// for. Each format is one small type behind one interface, Renderer,
// looked up by name with New; Names lists them:
//
//   - text: JMH's result table (Text);
//   - markdown: the same table for a pull-request comment (Markdown);
//   - csv: JMH's `-rf csv` columns, failed runs kept (CSV);
//   - json: the lossless report, report.Write (JSON);
//   - jmh: JMH's own `-rf json`, for the tools made for JMH (JMH);
//   - gobench: the Go benchmark format, for benchstat (GoBench).
//
// The tables — text, markdown, csv, and html in internal/format/html —
// read the same rows and footnotes (Rows): a run's primary metric, its
// secondary metrics by name, failed runs as a "FAILED [n]" row whose
// reason is footnote n, and each diagnostic of a run a footnote marked
// after the unit of the run's row. In every format a number that does not
// exist is absent — null in JSON, an empty CSV field, no result line —
// never NaN or a string; failed runs are listed with their reason, except
// in jmh and gobench, whose readers expect only results (JMH leaves
// failed benchmarks out too).
//
// The text and markdown tables are drawn by tablewriter (Table,
// MarkdownTable), as are the other aligned tables of the benchspec
// program. html is not here but in internal/format/html, whose charts
// link gonum/plot and its fonts.
package format

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/report"
)

// Renderer writes a report in one format.
type Renderer interface {
	Render(w io.Writer, r *report.Report) error
}

// renderers maps each format name to its renderer. It is never modified.
var renderers = map[string]Renderer{
	"text":     Text{},
	"json":     JSON{},
	"jmh":      JMH{},
	"gobench":  GoBench{},
	"csv":      CSV{},
	"markdown": Markdown{},
}

// Names returns the format names New accepts, sorted.
func Names() []string {
	names := make([]string, 0, len(renderers))
	for name := range renderers {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// New returns the renderer of the named format, or an error that lists
// the valid formats.
func New(name string) (Renderer, error) {
	if r, ok := renderers[name]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("unknown format %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// JSON writes the report as indented JSON with a trailing newline
// (report.Write): the lossless format, described by
// schemas/result.schema.json and read back by report.Read.
type JSON struct{}

// Render writes r as JSON to w.
func (JSON) Render(w io.Writer, r *report.Report) error { return report.Write(w, r) }
