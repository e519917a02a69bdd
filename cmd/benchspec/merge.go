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
			"machine or Go version are merged with a warning.\n\n"+
			"The shards of one plan (run --shard i/n) merge into the whole plan's\n"+
			"report, in plan order. Merge proves it complete: it refuses shards of\n"+
			"different plans (exit 2) and fails naming every missing shard and run\n"+
			"(exit 1, nothing written unless --allow-incomplete).")
	out := fs.String("out", "", "write to this file instead of stdout")
	partial := fs.Bool("allow-incomplete", false, "write the merge of the shards given even when shards or runs are missing, marked incomplete (still exit 1)")
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
	var mismatch *report.ShardError
	var incomplete *report.IncompleteError
	switch {
	case errors.As(err, &mismatch):
		for _, p := range mismatch.Problems {
			fmt.Fprintf(stderr, "benchspec merge: %s\n", p)
		}
		fmt.Fprintf(stderr, "benchspec merge: the inputs are not the shards of one plan; nothing written\n")
		return exitUsage
	case errors.As(err, &incomplete):
		return mergeIncomplete(incomplete, merged, *partial, *out, stdout, stderr)
	}
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
	render := func(w io.Writer) error { return report.Write(w, merged) }
	if err := writeOutput(*out, stdout, render); err != nil {
		return fail(stderr, "merge", err)
	}
	return exitOK
}

// mergeIncomplete reports the shards and runs a merge lacks and, when
// allowed, writes the partial merge. The exit status is 1 either way: a
// nightly batch that lost a shard has not measured everything.
func mergeIncomplete(e *report.IncompleteError, merged *report.Report, write bool, out string, stdout, stderr io.Writer) int {
	for _, i := range e.MissingShards {
		fmt.Fprintf(stderr, "benchspec merge: shard %d/%d is missing\n", i, e.Count)
	}
	for _, k := range e.MissingRuns {
		fmt.Fprintf(stderr, "benchspec merge: run %q is missing\n", k)
	}
	fmt.Fprintf(stderr, "benchspec merge: incomplete: %d of %d planned runs missing", len(e.MissingRuns), e.Planned)
	if !write {
		fmt.Fprintf(stderr, "; nothing written (--allow-incomplete writes what there is)\n")
		return exitFail
	}
	fmt.Fprintf(stderr, "; the merged report is marked incomplete\n")
	render := func(w io.Writer) error { return report.Write(w, merged) }
	if err := writeOutput(out, stdout, render); err != nil {
		return fail(stderr, "merge", err)
	}
	return exitFail
}
