package main

import (
	"io"
	"os"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/format/html"
)

// formats are the formats benchspec renders: report/format's and html,
// which only this binary links (a suite binary would pay for the chart
// library at every fork's start).
func formats() format.List {
	l := format.Builtin()
	l["html"] = html.Renderer{}
	return l
}

func runReport(e *cli.Env, args []string) int {
	fs := e.Flags("report RESULT.json [--format F] [--out FILE]",
		"Report renders a JSON report saved by a suite's `run --format json` in\n"+
			"another format, so that a nightly job need keep only the JSON. RESULT.json\n"+
			"may be - for stdin.")
	findFormat := cli.FormatFlag[format.Renderer](fs, formats())
	out := fs.String("out", "", "write to this file instead of stdout")
	files, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(files) != 1 {
		return e.UsageError("want one JSON report, got %d", len(files))
	}
	renderer, err := findFormat()
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
