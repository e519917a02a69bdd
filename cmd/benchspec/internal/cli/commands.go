package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/spec"
)

// Footer is the end of the usage of the commands that run specs.
const Footer = `A SPEC is a spec file or a directory of them (its *.yaml files, sorted).
A SUITE is a suite binary or its main package (one that calls
benchspec.Main); a suite binary run by hand passes its command line here
with itself as the suite.

Exit status: 0 all good, 1 a benchmark failed (or, with run --strict, a
diagnostic warned) or compare found a regression, 2 bad usage, an invalid
spec or input, or an output that cannot be written, 130 or 143 a run
interrupted by SIGINT or SIGTERM (its partial report is written, and
'run --resume JOURNAL' finishes it).
`

// SpecCommands are the commands that read specs: run, list, validate and
// plan, with reg's package benchmarks and formats, and the benchmarks of
// the suite binary that --suite names.
func SpecCommands(ctx context.Context, reg Registry) []Command {
	// A suite binary that handed its command line over is the suite.
	suite, listSuite := "[--suite SUITE] ", "--suite SUITE"
	if handedSuite() != "" {
		suite, listSuite = "", ""
	}
	return []Command{
		{"run", suite + "SPEC...", "run the specs and report (table on stdout, progress on stderr)",
			func(e *Env, args []string) int { return Run(ctx, e, args, reg) }},
		{"list", listSuite, "list the suite's registered benchmarks and their parameters",
			func(e *Env, args []string) int { return listCmd(ctx, e, args, reg) }},
		{"validate", suite + "SPEC...", "check the specs against the schema (and the suite's benchmarks)",
			func(e *Env, args []string) int { return Validate(ctx, e, args, reg) }},
		{"plan", suite + "SPEC...", "print the runs the specs expand to, with the estimated time",
			func(e *Env, args []string) int { return planCmd(ctx, e, args, reg) }},
		{"ab", "--base B --new N SPEC...", "run two builds in one batch, forks paired, and judge the change",
			func(e *Env, args []string) int { return abCmd(ctx, e, args, reg) }},
	}
}

// Validate is the validate command: it checks the specs as load does
// and prints every problem, or that all is well; with a suite, or
// package entries to list, also what only the registry can say — that
// every include matches a benchmark and every param exists — and the
// plan's size and estimated time.
func Validate(ctx context.Context, e *Env, args []string, reg Registry) int {
	fs := e.Flags("validate SPEC...",
		"Validate checks the specs (files, or directories of *.yaml files) and\n"+
			"reports, on stderr, every problem as path:line:col: message, or\n"+
			"\"path: ok\" for a valid file, then a summary line. It exits 0 if every\n"+
			"spec is valid and 2 otherwise.")
	allowOutside := allowOutsideFlag(fs)
	suite := suiteFlag(fs)
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	reg, ok = reg.withSuite(ctx, e, *suite)
	if !ok {
		return failStatus(ctx, ExitUsage)
	}
	// Package entries are checked as plan checks them: their test
	// binaries built and listed, so that an include that matches
	// nothing is refused here, not at the first run.
	opts := &loadOpts{verbose: true, allowOutside: *allowOutside, listPackages: reg.Packages != nil, listForPackages: true}
	var r *Registry
	switch {
	case reg.Executable != "" || reg.Benchmarks != nil:
		r = &reg
	case reg.Packages != nil:
		r, opts.packagesOnly = &reg, true
	}
	p, ok := load(ctx, e, paths, r, opts)
	if !ok {
		return failStatus(ctx, ExitUsage)
	}
	if p != nil {
		fmt.Fprintf(e.Stderr, "%d runs, estimated %s\n", len(p.Runs), p.Estimate.Round(time.Second))
	}
	return ExitOK
}

func listCmd(ctx context.Context, e *Env, args []string, reg Registry) int {
	fs := e.Flags("list --suite SUITE", "List prints the suite's registered benchmarks, one a line, with their parameters;\n"+
		"a group (benchspec.RegisterGroup) with its members in declared order.")
	suite := suiteFlag(fs)
	pos, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return e.UsageError("list takes no arguments, got %q", pos)
	}
	if *suite == "" {
		return e.UsageError("list needs a suite binary: --suite SUITE")
	}
	if reg, ok = reg.withSuite(ctx, e, *suite); !ok {
		return failStatus(ctx, ExitUsage)
	}
	stdout := e.Stdout
	for _, b := range reg.Benchmarks {
		line := []string{b.Name}
		if len(b.Members) > 0 {
			line = append(line, "group: "+strings.Join(b.Members, ", "))
		}
		var ps []string
		for _, n := range slices.Sorted(maps.Keys(b.Params)) {
			ps = append(ps, fmt.Sprintf("%s=%s", n, strings.Join(b.Params[n], ",")))
		}
		if len(ps) > 0 {
			line = append(line, strings.Join(ps, " "))
		}
		fmt.Fprintln(stdout, strings.Join(line, "\t"))
	}
	return 0
}

func planCmd(ctx context.Context, e *Env, args []string, reg Registry) int {
	fs := e.Flags("plan [--shard i/n | --shards n] SPEC...",
		"Plan prints the runs the specs expand to, with their settings and estimated\n"+
			"time; --shards n shows which part of n each run falls in.")
	var shard shardFlags
	shard.register(fs, true)
	allowOutside := allowOutsideFlag(fs)
	suite := suiteFlag(fs)
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if reg, ok = reg.withSuite(ctx, e, *suite); !ok {
		return failStatus(ctx, ExitUsage)
	}
	stdout := e.Stdout
	spread := 0 // --shards alone: show every run's part
	if shard.shards > 0 && !shard.fromEnv && shard.shard == "" {
		spread, shard.shards = shard.shards, 0
	}
	p, ok := load(ctx, e, paths, &reg, &loadOpts{allowOutside: *allowOutside, listPackages: true})
	if ok {
		p, ok = shard.apply(p, e)
	}
	if !ok {
		return failStatus(ctx, ExitUsage)
	}
	var parts []int
	if spread > 0 {
		parts = plan.Assign(p, spread)
	}
	header := []string{"#", "Benchmark", "Params", "Mode", "Threads", "Forks", "Warmup", "Measurement", "Estimate"}
	if parts != nil {
		header = append(header, "Shard")
	}
	var rows [][]string
	for _, r := range p.Runs {
		s := r.Settings
		var ps []string
		for _, prm := range r.Params {
			ps = append(ps, prm.Name+"="+prm.Value)
		}
		forks := fmt.Sprint(s.Forks)
		if pr := s.Precision; pr.Set() && s.Forks > 0 {
			forks = fmt.Sprintf("%d..%d until ±%.4g%% or %s", s.Forks, pr.ForkBound(s.Forks), 100*pr.Error, pr.TimeBound())
		}
		if s.WarmupForks > 0 {
			forks = fmt.Sprintf("%d+%s", s.WarmupForks, forks)
		}
		meas := phaseString(s.Measurement, r.Mode)
		if pr := s.Precision; pr.Set() && s.Forks > 0 {
			// Added forks may run up to the iteration bound.
			grown := s.Measurement
			grown.Iterations = pr.IterationBound(s.Measurement.Iterations)
			meas = fmt.Sprintf("%d..%s", s.Measurement.Iterations, phaseString(grown, r.Mode))
		}
		threads := strconv.Itoa(s.Threads)
		if s.Threads == spec.ThreadsMax {
			threads = "max"
		}
		for i, m := range r.Group { // "4 = write 1 + read 3"
			sep := " + "
			if i == 0 {
				sep = " = "
			}
			threads += sep + m.Name + " " + strconv.Itoa(m.Threads)
		}
		row := []string{strconv.Itoa(r.Index + 1), r.Benchmark, strings.Join(ps, " "), r.Mode.String(), threads, forks,
			phaseString(s.Warmup, r.Mode), meas, r.Estimate.Round(time.Millisecond).String()}
		if parts != nil {
			row = append(row, fmt.Sprintf("%d/%d", parts[r.Index], spread))
		}
		rows = append(rows, row)
	}
	align := make([]format.Align, len(header))
	align[0], align[8] = format.Right, format.Right // the run's number, its estimate
	// Names and params come from the specs and the suite: escaped.
	if _, err := io.WriteString(termsafe.Writer(stdout), format.TextTable(header, rows, align...)); err != nil {
		return e.Fail(fmt.Errorf("writing to stdout: %w", err))
	}
	if s := p.Shard; s != nil {
		fmt.Fprintf(stdout, "\nshard %s: %d of %d runs, estimated %s\n", s, len(p.Runs), len(s.PlannedRuns), p.Estimate.Round(time.Second))
		return 0
	}
	fmt.Fprintf(stdout, "\n%d runs, estimated %s\n", len(p.Runs), p.Estimate.Round(time.Second))
	for i := 1; i <= spread; i++ {
		var n int
		var est time.Duration
		for j, part := range parts {
			if part == i {
				n++
				est = plan.AddEstimates(est, p.Runs[j].Estimate)
			}
		}
		fmt.Fprintf(stdout, "shard %d/%d: %d runs, estimated %s\n", i, spread, n, est.Round(time.Second))
	}
	return 0
}

func phaseString(it spec.Iterations, mode spec.Mode) string {
	if !mode.TimedIterations() {
		return fmt.Sprintf("%d × batch %d", it.Iterations, it.BatchSize)
	}
	s := fmt.Sprintf("%d × %s", it.Iterations, it.Time)
	if it.BatchSize > 1 {
		s += fmt.Sprintf(" (batch %d)", it.BatchSize)
	}
	return s
}
