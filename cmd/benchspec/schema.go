package main

import (
	"bytes"
	"io"
	"strings"

	"github.com/benchspec/benchspec/schemas"
)

func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("schema", "schema [spec|result]",
		"Schema prints a JSON Schema (draft-07) to stdout: of spec files (the\n"+
			"default) or of the JSON results that benchspec writes.")
	names, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(names) > 1 {
		return usageError(fs, stderr, "want at most one schema name, got %d", len(names))
	}
	var data []byte
	switch name := strings.Join(names, ""); name {
	case "", "spec":
		data = schemas.Spec
	case "result":
		data = schemas.Result
	default:
		return usageError(fs, stderr, "unknown schema %q (want spec or result)", name)
	}
	stdout.Write(data)
	if !bytes.HasSuffix(data, []byte("\n")) {
		io.WriteString(stdout, "\n")
	}
	return exitOK
}
