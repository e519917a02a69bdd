package main

import (
	"bytes"
	"io"

	"github.com/benchspec/benchspec/schemas"
)

func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("schema", "schema [spec|result]",
		"Schema prints a JSON Schema (draft-07) to stdout: of spec files (the\n"+
			"default) or of the JSON results that benchspec writes.")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if fs.NArg() > 1 {
		return usageError(fs, stderr, "want at most one schema name, got %d", fs.NArg())
	}
	var data []byte
	switch name := fs.Arg(0); name {
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
