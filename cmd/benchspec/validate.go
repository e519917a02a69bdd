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
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if fs.NArg() == 0 {
		return usageError(fs, stderr, "no spec files given")
	}
	if _, n := spec.ValidateFiles(stderr, fs.Args()); n > 0 {
		return exitUsage
	}
	return exitOK
}
