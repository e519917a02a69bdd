package main

import (
	"io"

	"github.com/benchspec/benchspec/spec"
)

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "validate FILE...",
		"Validate parses every spec file and reports, on stderr, each problem as\n"+
			"path:line:col: message, all of them, then a summary line. It exits 0 if\n"+
			"every file is valid and 2 otherwise.")
	files, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(files) == 0 {
		return usageError(fs, stderr, "no spec files given")
	}
	if _, n := spec.ValidateFiles(stderr, files); n > 0 {
		return exitUsage
	}
	return exitOK
}
