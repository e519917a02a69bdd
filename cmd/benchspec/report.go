package main

import (
	"io"
	"os"
	"strings"

	"github.com/benchspec/benchspec/report"
)

func runReport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report", "report RESULT.json [--format F] [--out FILE]",
		"Report renders a JSON report saved by a suite's `run --format json` in\n"+
			"another format, so that a nightly job need keep only the JSON. RESULT.json\n"+
			"may be - for stdin.")
	format := fs.String("format", "text", "output format: "+strings.Join(report.Formats(), ", "))
	out := fs.String("out", "", "write to this file instead of stdout")
	files, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(files) != 1 {
		return usageError(fs, stderr, "want one JSON report, got %d", len(files))
	}
	renderer, err := report.NewRenderer(*format)
	if err != nil {
		return usageError(fs, stderr, "--format: %v", err)
	}
	rep, err := readReport(files[0], os.Stdin)
	if err != nil {
		return fail(stderr, "report", err)
	}
	if err := writeOutput(*out, stdout, func(w io.Writer) error { return renderer.Render(w, rep) }); err != nil {
		return fail(stderr, "report", err)
	}
	return exitOK
}
