package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"

	"github.com/benchspec/benchspec/schemas"
)

func runSchema(e *cli.Env, args []string) int {
	fs := e.Flags("schema [spec|result|history|comparison|ab]",
		"Schema prints a JSON Schema (draft-07) to stdout: of spec files (the\n"+
			"default), of the JSON results that benchspec writes, of the JSON\n"+
			"history (benchspec history --format json), of compare --format json,\n"+
			"or of ab --format json (which refers to the comparison and result\n"+
			"schemas by their $id).")
	names, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(names) > 1 {
		return e.UsageError("want at most one schema name, got %d", len(names))
	}
	var data []byte
	switch name := strings.Join(names, ""); name {
	case "", "spec":
		data = schemas.Spec
	case "result":
		data = schemas.Result
	case "history":
		data = schemas.History
	case "comparison":
		data = schemas.Comparison
	case "ab":
		data = schemas.AB
	default:
		return e.UsageError("unknown schema %q (want spec, result, history, comparison or ab)", name)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		data = append(slices.Clip(data), '\n')
	}
	if _, err := e.Stdout.Write(data); err != nil {
		return e.Fail(fmt.Errorf("writing to stdout: %w", err))
	}
	return exitOK
}
