// Package format renders a report.Report in the formats a reader asks
// for: text, markdown, csv, json, jmh and gobench, each one small type
// behind Renderer, looked up by name with New.
//
// The tables (text, markdown, csv, and html in report/format/html) read
// the same rows and footnotes (Rows): a failed run is a "FAILED [n]" row
// whose reason is footnote n, and each diagnostic a footnote after the
// unit. A number that does not exist is absent in every format, never NaN
// or a string. The text and markdown tables are drawn by tablewriter
// (Table, MarkdownTable); html lives in report/format/html.
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
