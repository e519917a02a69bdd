package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Renderer writes a report in one format.
type Renderer interface {
	Render(w io.Writer, r *Report) error
}

// renderers maps each format name to its renderer. It is never modified.
var renderers = map[string]func() Renderer{
	"text":     func() Renderer { return TextRenderer{} },
	"json":     func() Renderer { return JSONRenderer{} },
	"jmh":      func() Renderer { return JMHRenderer{} },
	"gobench":  func() Renderer { return GoBenchRenderer{} },
	"csv":      func() Renderer { return CSVRenderer{} },
	"markdown": func() Renderer { return MarkdownRenderer{} },
	"html":     func() Renderer { return HTMLRenderer{} },
}

// Formats returns the format names NewRenderer accepts, sorted.
func Formats() []string {
	names := make([]string, 0, len(renderers))
	for name := range renderers {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// NewRenderer returns the renderer of the named format, or an error that
// lists the valid formats.
func NewRenderer(format string) (Renderer, error) {
	if mk, ok := renderers[format]; ok {
		return mk(), nil
	}
	return nil, fmt.Errorf("report: unknown format %q (valid: %s)", format, strings.Join(Formats(), ", "))
}

// JSONRenderer writes the report as indented JSON with a trailing newline:
// the lossless format, described by schemas/result.schema.json and read
// back by Read.
type JSONRenderer struct{}

// Render writes r as JSON to w.
func (JSONRenderer) Render(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // keep "<failure>" and "a < b" readable
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report: writing JSON: %w", err)
	}
	return nil
}
