package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report"
)

func runMerge(e *cli.Env, args []string) int {
	fs := e.Flags("merge [--pool] A.json B.json... [--out all.json]",
		"Merge combines JSON reports of disjoint runs, such as the shards of one\n"+
			"plan or the reports of several specs, into one JSON report. A run (same\n"+
			"benchmark, params and mode) in two inputs is a collision: merge lists them\n"+
			"all and exits 2 without writing anything. Inputs measured on another\n"+
			"machine or Go version are merged with a warning.\n\n"+
			"The shards of one plan (run --shard i/n) merge into the whole plan's\n"+
			"report, in plan order. Merge proves it complete: it refuses shards of\n"+
			"different plans (exit 2) and fails naming every missing shard and run\n"+
			"(exit 1, nothing written unless --allow-incomplete).\n\n"+
			"With --pool, the inputs are batches of the same build on the same machine\n"+
			"(such as the A batches of A, B, A, B, … run in turn): a run in several\n"+
			"inputs becomes one run whose forks are all of theirs, numbered on, each\n"+
			"with the report it came from (pooled_from), and its statistics are\n"+
			"computed again from all those forks. Inputs that are not the same\n"+
			"measurement (another build, machine or Go version; another mode,\n"+
			"iterations, times, batch size, threads, params, time unit or env of a\n"+
			"run) are refused, each difference named (exit 2, nothing written). A run\n"+
			"that failed in any input is failed in the pool.")
	out := fs.String("out", "", "write to this file instead of stdout")
	pool := fs.Bool("pool", false, "pool the forks of the same run from several batches of one build into one run, instead of refusing them as collisions")
	partial := fs.Bool("allow-incomplete", false, "write the merge of the shards given even when shards or runs are missing, marked incomplete (still exit 1)")
	files, status, ok := e.Parse(fs, args)
	stderr := e.Stderr
	if !ok {
		return status
	}
	if len(files) == 0 {
		return e.UsageError("no JSON reports given")
	}
	if !outputOK(e, *out, files...) {
		return exitUsage
	}
	inputs := make([]report.Named, len(files))
	for i, path := range files {
		rep, err := readReport(path, os.Stdin)
		if err != nil {
			return e.Fail(err)
		}
		inputs[i] = report.Named{Name: path, Report: rep}
	}
	if *pool {
		return mergePool(e, inputs, *out)
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
		return mergeIncomplete(e, incomplete, merged, *partial, *out)
	}
	if errors.As(err, &collide) {
		for _, c := range collide.Collisions {
			fmt.Fprintf(stderr, "benchspec merge: run %q is in both %s and %s\n", c.Key, c.First, c.Second)
		}
		fmt.Fprintf(stderr, "benchspec merge: %d colliding runs; nothing written\n", len(collide.Collisions))
		return exitUsage
	}
	if err != nil {
		return e.Fail(err)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "benchspec merge: warning: %s\n", w)
	}
	render := func(w io.Writer) error { return report.Write(w, merged) }
	if err := cli.WriteOutput(*out, e.Stdout, render); err != nil {
		return e.Fail(err)
	}
	return exitOK
}

// mergeIncomplete reports the shards and runs a merge lacks and, when
// allowed, writes the partial merge. The exit status is 1 either way: a
// nightly batch that lost a shard has not measured everything.
func mergeIncomplete(ce *cli.Env, e *report.IncompleteError, merged *report.Report, write bool, out string) int {
	stdout, stderr := ce.Stdout, ce.Stderr
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
	if err := cli.WriteOutput(out, stdout, render); err != nil {
		return ce.Fail(err)
	}
	return exitFail
}

// mergePool writes the pool of inputs (report.Pool), or names every
// difference that makes them different measurements and exits 2.
func mergePool(e *cli.Env, inputs []report.Named, out string) int {
	pooled, warnings, err := report.Pool(inputs)
	var refused *report.PoolError
	if errors.As(err, &refused) {
		for _, p := range refused.Problems {
			fmt.Fprintf(e.Stderr, "benchspec merge --pool: %s\n", p)
		}
		fmt.Fprintf(e.Stderr, "benchspec merge --pool: the inputs are not the same measurement; nothing written\n")
		return exitUsage
	}
	if err != nil {
		return e.Fail(err)
	}
	for _, w := range warnings {
		fmt.Fprintf(e.Stderr, "benchspec merge --pool: warning: %s\n", w)
	}
	render := func(w io.Writer) error { return report.Write(w, pooled) }
	if err := cli.WriteOutput(out, e.Stdout, render); err != nil {
		return e.Fail(err)
	}
	return exitOK
}
