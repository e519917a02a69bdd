package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/benchspec/benchspec/report"
)

func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", "merge A.json B.json... [--out all.json]",
		"Merge combines JSON reports of disjoint runs, such as the shards of one\n"+
			"plan or the reports of several specs, into one JSON report. A run (same\n"+
			"benchmark, params and mode) in two inputs is a collision: merge lists them\n"+
			"all and exits 2 without writing anything. Inputs measured on another\n"+
			"machine or Go version are merged with a warning.")
	out := fs.String("out", "", "write to this file instead of stdout")
	files, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(files) == 0 {
		return usageError(fs, stderr, "no JSON reports given")
	}
	inputs := make([]report.Named, len(files))
	for i, path := range files {
		rep, err := readReport(path, os.Stdin)
		if err != nil {
			return fail(stderr, "merge", err)
		}
		inputs[i] = report.Named{Name: path, Report: rep}
	}
	merged, warnings, err := report.Merge(inputs)
	var collide *report.MergeError
	if errors.As(err, &collide) {
		for _, c := range collide.Collisions {
			fmt.Fprintf(stderr, "benchspec merge: run %q is in both %s and %s\n", c.Key, c.First, c.Second)
		}
		fmt.Fprintf(stderr, "benchspec merge: %d colliding runs; nothing written\n", len(collide.Collisions))
		return exitUsage
	}
	if err != nil {
		return fail(stderr, "merge", err)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "benchspec merge: warning: %s\n", w)
	}
	render := func(w io.Writer) error { return report.JSONRenderer{}.Render(w, merged) }
	if err := writeOutput(*out, stdout, render); err != nil {
		return fail(stderr, "merge", err)
	}
	return exitOK
}
