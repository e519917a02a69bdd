package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/history"
	"github.com/benchspec/benchspec/report/history/index"
)

func runHistory(e *cli.Env, args []string) int {
	fs := e.Flags("history DIR... [--format text|markdown|json|html] [--fail-on-regression]",
		"History reads every batch's report that run --results-dir kept in DIR (a\n"+
			"suite's directory in it, or the results directory itself for all its\n"+
			"suites) and makes one time series per run: benchmark, params, threads and\n"+
			"mode, a point per batch in the order the batches ran. It finds the change\n"+
			"points of each series (E-Divisive means with Student's t-test, as Hunter\n"+
			"and Apache Otava: see docs/statistics.md) and shows per series the last value,\n"+
			"the trend and the change points, with the revisions and labels either\n"+
			"side. A summary of each report is kept in DIR/SUITE/"+index.Name+",\n"+
			"rebuilt from the reports when missing or stale. With --fail-on-regression\n"+
			"it exits 1 when the newest change point of a series is a regression that\n"+
			"the newest point does not revert; it exits 2 on bad usage or a report it\n"+
			"cannot read, and 0 otherwise.")
	findFormat := cli.FormatFlag[format.HistoryRenderer](fs, formats())
	out := fs.String("out", "", "write to this file instead of stdout")
	minChange := fs.String("min-change", format.Percent(history.DefaultMinChange), "smallest change of a series' level that counts, in percent (the % is optional)")
	p := fs.Float64("p", history.DefaultP, "largest p-value of a change point that counts (Student's t-test)")
	failOn := fs.Bool("fail-on-regression", false, "exit 1 when a series' newest change point is an unreverted regression, naming it")
	dirs, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(dirs) == 0 {
		return e.UsageError("want at least one results directory")
	}
	mc, err := cli.ParsePercent(*minChange)
	if err != nil {
		return e.UsageError("--min-change: %v", err)
	}
	if !(*p > 0 && *p < 1) {
		return e.UsageError("--p: %s is not between 0 and 1", strconv.FormatFloat(*p, 'g', -1, 64))
	}
	render, err := findFormat()
	if err != nil {
		return e.UsageError("--format: %v", err)
	}
	if !outputOK(e, *out) {
		return exitUsage
	}
	if err := cli.CheckOutsideResults("--out", *out, dirs); err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	read, err := history.Read(dirs)
	if err != nil {
		return e.Fail(err)
	}
	refreshIndexes(read, e)
	h := history.Build(read)
	history.Analyze(h, history.Options{MinChange: mc, P: *p})
	err = cli.WriteOutput(*out, e.Stdout, func(w io.Writer) error { return render.History(w, h) })
	if err != nil {
		return e.Fail(err)
	}
	if !*failOn {
		return exitOK
	}
	regressed := h.Regressions()
	for _, s := range regressed {
		cp := s.ChangePoints[len(s.ChangePoints)-1]
		e.Errorf("regression: %s at batch %d: %s", s.Name(), cp.Batch, format.ChangeString(cp))
	}
	if len(regressed) > 0 {
		return exitFail
	}
	return exitOK
}

// refreshIndexes rewrites the index of each directory where it was
// missing or stale. It is a cache: when it cannot be written (a
// read-only directory), the next history reads the reports again.
func refreshIndexes(dirs []history.Dir, e *cli.Env) {
	for _, d := range dirs {
		if !d.Stale {
			continue
		}
		path := filepath.Join(d.Path, index.Name)
		// Only a regular file is replaced: writing to a FIFO put in its
		// place would block, and a link would write elsewhere.
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			e.Errorf("the index %s is not a regular file: not updated; the next history reads the reports again", path)
			continue
		}
		if err := cli.WriteOutput(path, nil, func(w io.Writer) error { return index.Encode(w, d.Entries) }); err != nil {
			e.Errorf("cannot update the index %s (%v): the next history reads the reports again", path, err)
		}
	}
}
