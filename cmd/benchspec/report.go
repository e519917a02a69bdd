package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/format/html"
)

// extraFormats are the formats benchspec renders beyond report/format's:
// html, which only this binary links (a suite binary would pay for the
// chart library at every fork's start).
var extraFormats = map[string]format.Renderer{"html": html.Renderer{}}

// formatNames are the names of every format benchspec renders, sorted.
func formatNames() []string {
	names := format.Names()
	for name := range extraFormats {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// newRenderer returns the renderer of the named format, or an error that
// lists the valid formats.
func newRenderer(name string) (format.Renderer, error) {
	if r, ok := extraFormats[name]; ok {
		return r, nil
	}
	if r, err := format.New(name); err == nil {
		return r, nil
	}
	return nil, fmt.Errorf("unknown format %q (valid: %s)", name, strings.Join(formatNames(), ", "))
}

func runReport(e *cli.Env, args []string) int {
	fs := e.Flags("report RESULT.json [--format F] [--out FILE]",
		"Report renders a JSON report saved by a suite's `run --format json` in\n"+
			"another format, so that a nightly job need keep only the JSON. RESULT.json\n"+
			"may be - for stdin.")
	format := fs.String("format", "text", "output format: "+strings.Join(formatNames(), ", "))
	out := fs.String("out", "", "write to this file instead of stdout")
	files, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(files) != 1 {
		return e.UsageError("want one JSON report, got %d", len(files))
	}
	renderer, err := newRenderer(*format)
	if err != nil {
		return e.UsageError("--format: %v", err)
	}
	if !outputOK(e, *out, files...) {
		return exitUsage
	}
	rep, err := readReport(files[0], os.Stdin)
	if err != nil {
		return e.Fail(err)
	}
	if err := cli.WriteOutput(*out, e.Stdout, func(w io.Writer) error { return renderer.Render(w, rep) }); err != nil {
		return e.Fail(err)
	}
	return exitOK
}
