package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/runlog"
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/handoff"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/table"
	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/host"
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
	if handoff.HandedSuite() != "" {
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

// Suite runs one of the SpecCommands and returns its exit status (tests).
func Suite(ctx context.Context, args []string, reg Registry, stdout, stderr io.Writer) int {
	p := &Program{Name: ProgName(), Commands: SpecCommands(ctx, reg), Footer: Footer}
	return p.Run(args, stdout, stderr)
}

// load is the one way every command of both binaries reads specs: it
// parses them (files, and directories of *.yaml files: see specFiles)
// and, when there is a registry (a suite's, or the package benchmarks of
// cmd/benchspec run), builds one plan of them all. It prints every
// problem as path:line:col: message, grouped by file in the order given,
// and a summary line; with verbose (validate), "path: ok (N entries)"
// for every valid file and the summary also when all is well. ok is
// false when there were problems. Without a registry, specs are checked
// as specs (schema and semantics) and the plan is nil.
//
// A `package:` entry may name only a package of the module that holds its
// spec, or of the standard library (plan.CheckPackageScope), unless
// opts.allowOutside; a spec that names another is refused before any
// package is built. Without opts.listPackages, or for specs with errors,
// nothing of a package is built or run: its entries are checked as
// entries (plan.CheckPackageEntries) and left out of the plan.
func load(ctx context.Context, e *Env, paths []string, reg *Registry, opts *loadOpts) (*plan.Plan, bool) {
	verbose := opts.verbose
	if len(paths) == 0 {
		e.UsageError("no spec files given")
		return nil, false
	}
	paths, err := specFiles(paths)
	if err != nil {
		e.Errorf("%v", err)
		return nil, false
	}
	var specs []*spec.Spec
	byFile := map[string][]error{}
	var other []error // problems without a position in a file given
	entries := map[string]int{}
	built := map[string][]string{} // the names of each spec's builds
	partial := 0                   // specs with errors, checked against the registry without them
	for _, path := range paths {
		s, err := spec.ParseFilePartial(path)
		if err != nil {
			byFile[path] = append(byFile[path], err)
			if s == nil || reg == nil {
				continue
			}
			partial++
		}
		entries[path] = len(s.Entries)
		if opts.paired {
			s.UsePairedDefaults()
		}
		for _, b := range s.Builds {
			built[path] = append(built[path], b.Name)
		}
		specs = append(specs, s)
	}
	var p *plan.Plan
	var scoped spec.ErrorList
	for _, s := range specs {
		for _, en := range s.Entries {
			if en.Package != "" {
				opts.packages++
			}
		}
	}
	if !opts.allowOutside {
		scoped = plan.CheckPackageScope(specs)
	}
	scoped = append(scoped, plan.CheckBuildScope(specs)...)
	builds, conflicts := batchBuilds(specs)
	scoped = append(scoped, conflicts...)
	if !opts.listPackages || partial > 0 {
		// Not listed: checked as entries.
		scoped = append(scoped, plan.CheckPackageEntries(specs)...)
	}
	sort.SliceStable(scoped, func(i, j int) bool {
		a, b := scoped[i].Pos, scoped[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	for _, pe := range scoped {
		byFile[pe.Pos.File] = append(byFile[pe.Pos.File], pe)
	}
	if len(specs) == len(paths) && reg != nil && len(scoped) == 0 {
		var err error
		planned := specs
		if opts.packagesOnly {
			planned = plan.OnlyPackages(specs)
		}
		switch {
		case opts.packagesOnly && (partial > 0 || opts.packages == 0):
			// Nothing to check beyond the entries: no suite for the
			// registered ones, no listing of a spec with errors.
		case opts.listPackages && partial == 0 && (opts.packages > 0 || !opts.listForPackages):
			var benchmarks []plan.Benchmark
			start := time.Now()
			benchmarks, err = withPackages(ctx, planned, *reg)
			if d := time.Since(start); err == nil && d >= time.Second && !opts.quiet && (len(builds) > 0 || opts.packages > 0) {
				// Not in the estimate, which is of the runs: say where
				// the time went before the estimate is printed.
				fmt.Fprintf(e.Stderr, "# %s built and listed in %s (cached for the next run; not in the estimate)\n",
					builtWhat(len(builds), opts.packages), d.Round(100*time.Millisecond))
			}
			if err == nil {
				p, err = plan.Build(planned, benchmarks)
			}
		default:
			p, err = plan.Build(plan.WithoutPackages(specs), asBuilt(specs, reg.Benchmarks))
		}
		if list := spec.Errors(err); list != nil {
			for _, pe := range list {
				if _, ok := entries[pe.Pos.File]; ok {
					byFile[pe.Pos.File] = append(byFile[pe.Pos.File], pe)
				} else {
					other = append(other, pe)
				}
			}
		} else if err != nil {
			other = append(other, err)
		}
		if partial > 0 || opts.packagesOnly && !slices.Equal(planned, specs) {
			p = nil // of specs without their errors or entries: a check, not a plan
		}
	}
	if ctx.Err() != nil {
		// A build or listing cut short fails because of the signal,
		// not of the specs: no spec error is printed for it.
		e.Errorf("%v while building and listing; nothing ran", context.Cause(ctx))
		return nil, false
	}
	n := 0
	for _, path := range paths {
		for _, err := range byFile[path] {
			n += spec.PrintErrors(termsafe.Writer(e.Stderr), err) // paths and values quoted from input
		}
		if len(byFile[path]) == 0 && verbose {
			what := plural(entries[path], "entry", "entries")
			if b := built[path]; len(b) > 0 {
				what += ", " + plural(len(b), "build", "builds") + ": " + strings.Join(b, ", ")
			}
			fmt.Fprintf(e.Stderr, "%s: ok (%s)\n", path, what)
		}
	}
	for _, err := range other {
		n += spec.PrintErrors(e.Stderr, err)
	}
	if n > 0 || verbose {
		fmt.Fprintln(e.Stderr, spec.Summary(len(paths), n))
	}
	return p, n == 0
}

// loadOpts are how a command loads its specs.
type loadOpts struct {
	// verbose prints "path: ok" for every valid file (validate).
	verbose bool
	// allowOutside lifts the package scope check
	// (--allow-packages-outside-module).
	allowOutside bool
	// listPackages builds the test binaries of `package:` entries and
	// lists their benchmarks, so that an include that matches nothing
	// is found (plan, run, validate).
	listPackages bool
	// packagesOnly plans only the `package:` entries: there is no suite
	// to check the others against (validate without --suite).
	packagesOnly bool
	// listForPackages builds and lists only for specs with `package:`
	// entries, whose includes only a listing can check; the builds of
	// other specs are checked as the suite given (asBuilt), not built
	// (validate).
	listForPackages bool
	// quiet leaves out the note of how long that took (run --quiet).
	quiet bool
	// paired gives entries ab's settings where the spec sets none
	// (spec.PairedDefaults).
	paired bool

	// packages is set by load: the number of `package:` entries.
	packages int
}

// allowOutsideFlag registers --allow-packages-outside-module on run, plan
// and validate.
func allowOutsideFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("allow-packages-outside-module", false,
		"let package: entries name packages outside the module that holds their spec (another module, an absolute path); "+
			"without it a spec runs only its own module's packages and the standard library")
}

// builtWhat names what load builds before the plan: "3 builds and test
// binaries of 2 package entries".
func builtWhat(builds, packages int) string {
	var what []string
	if builds > 0 {
		what = append(what, plural(builds, "build", "builds"))
	}
	if packages > 0 {
		what = append(what, "test binaries of "+plural(packages, "package entry", "package entries"))
	}
	s := strings.Join(what, " and ")
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Validate is the validate command of both binaries: it checks the specs
// as load does and prints every problem, or that all is well; with a
// registry (a suite's), also what only the registry can say — that every
// include matches a benchmark and every param exists — and the plan's
// size and estimated time. reg is nil for cmd/benchspec, which has no
// registered benchmarks.
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
	fs := e.Flags("list --suite SUITE", "List prints the suite's registered benchmarks, one a line, with their parameters.")
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
		names := make([]string, 0, len(b.Params))
		for n := range b.Params {
			names = append(names, n)
		}
		sort.Strings(names)
		var ps []string
		for _, n := range names {
			ps = append(ps, fmt.Sprintf("%s=%s", n, strings.Join(b.Params[n], ",")))
		}
		if len(ps) > 0 {
			fmt.Fprintf(stdout, "%s\t%s\n", b.Name, strings.Join(ps, " "))
		} else {
			fmt.Fprintln(stdout, b.Name)
		}
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
		row := []string{strconv.Itoa(r.Index + 1), r.Benchmark, strings.Join(ps, " "), r.Mode.String(), threads, forks,
			phaseString(s.Warmup, r.Mode), meas, r.Estimate.Round(time.Millisecond).String()}
		if parts != nil {
			row = append(row, fmt.Sprintf("%d/%d", parts[r.Index], spread))
		}
		rows = append(rows, row)
	}
	align := make([]table.Align, len(header))
	align[0], align[8] = table.Right, table.Right // the run's number, its estimate
	// Names and params come from the specs and the suite: escaped.
	if _, err := io.WriteString(termsafe.Writer(stdout), table.Text(header, rows, align...)); err != nil {
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

// Run is the run command of both binaries: it runs the specs with reg's
// benchmarks and forks — for cmd/benchspec, the `package:` entries' test
// binaries — and reports. It returns the exit status.
func Run(ctx context.Context, e *Env, args []string, reg Registry) int {
	stdout, stderr := e.Stdout, e.Stderr
	fs := e.Flags("run [flags] SPEC...",
		"Run runs the specs and writes the report: a table on stdout unless\n"+
			"--format or --out say otherwise, the run log and progress on stderr.")
	formatName := fs.String("format", "text", "output format: "+strings.Join(reg.formatNames(), ", "))
	out := fs.String("out", "", "write the report to this file instead of stdout")
	quiet := fs.Bool("quiet", false, "no run log and no progress on stderr")
	failFast := fs.Bool("fail-on-error", false, "stop the batch at the first failed run (JMH -foe)")
	profiles := fs.String("profiles", "", "write the pprof profiles of the cpu, heap, mutex and block profilers into this `directory`")
	journalFlag := fs.String("journal", "", "record every finished fork in this `file` (default: REPORT.journal with --out, none without)")
	resume := fs.String("resume", "", "resume the batch recorded in this `journal`: run only the forks it lacks (SPECs default to the journal's)")
	strict := fs.Bool("strict", false, "exit 1 when any diagnostic is a warning, the environment check's included: a number not to be trusted fails the batch")
	verbose := fs.Bool("verbose", false, "show the JMH run log (instead of the progress bar on a terminal, of a line per run elsewhere), and the text table's footnotes in full")
	label := fs.String("label", "", "record this `label` in the report, such as a CI build number (benchspec history shows it)")
	resultsRoot := fs.String("results-dir", "", "also keep the JSON report as `DIR`/SUITE/<UTC start>.json, with its journal, and as DIR/SUITE/latest.json")
	var shard shardFlags
	shard.register(fs, false)
	allowOutside := allowOutsideFlag(fs)
	var orderF orderFlags
	orderF.register(fs)
	suite := suiteFlag(fs)
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if reg, ok = reg.withSuite(ctx, e, *suite); !ok {
		return failStatus(ctx, ExitUsage)
	}
	renderer, err := reg.renderer(*formatName)
	if err != nil {
		return e.UsageError("--format: %v", err)
	}
	if *quiet && *verbose {
		return e.UsageError("--quiet and --verbose contradict each other: give one")
	}
	if err := checkTempDir(); err != nil {
		e.Errorf("%v", err)
		return 2
	}
	if _, ok := renderer.(format.Text); ok && *verbose {
		renderer = format.Text{Verbose: true} // footnotes in full
	}
	order, err := orderF.resolve(fs)
	if err != nil {
		return e.UsageError("%v", err)
	}
	resumed, paths, unlock, ok := loadResume(e, *resume, *journalFlag, paths)
	if !ok {
		return 2
	}
	defer unlock()
	inputs := runInputs(reg.Executable, *resume, paths)
	if err := checkRunOutputs(inputs, *out, *journalFlag, *resume); err != nil {
		e.Errorf("%v", err)
		return 2
	}
	p, ok := load(ctx, e, paths, &reg, &loadOpts{allowOutside: *allowOutside, listPackages: true, quiet: *quiet})
	if ok {
		p, ok = shard.apply(p, e)
	}
	if !ok {
		return failStatus(ctx, ExitUsage)
	}
	if !orderF.given(fs) && slices.ContainsFunc(p.Runs, func(r plan.Run) bool { return r.Build != "" }) {
		// A spec's builds share the batch's minutes fork by fork, so
		// that a drift of the machine does not fall on one build.
		order = executor.Order{Kind: executor.OrderInterleaved}
	}
	profDir, err := profileDir(*profiles)
	if err == nil && profDir != "" {
		err = checkProfileNames(p)
	}
	if err != nil {
		e.Errorf("--profiles: %v", err)
		return 2
	}
	rd, jpath, implicitJournal, ok := batchFiles(p, *resultsRoot, *resume, resumed, *journalFlag, *out, e)
	if !ok {
		return 2
	}
	err = CheckOverwrite(inputs, rd.outputs(*out, jpath, *resume))
	if err == nil && jpath != "" && *resume == "" {
		err = checkJournalPath("the journal", jpath)
	}
	if err != nil {
		e.Errorf("%v", err)
		rd.release()
		return 2
	}
	jr, ok := openJournal(e, p, reg.Executable, jpath, resumed, implicitJournal)
	if !ok {
		rd.release()
		return 2
	}
	if !*quiet {
		jr.announce(stderr)
		announceBatch(stderr, p, order)
	}
	env := host.CollectEnv()
	if !*quiet && env.Check != nil {
		_ = runlog.Environment(stderr, env.Check.Diagnostics, runlog.Width(stderr)) // a failed write to stderr has nowhere to go
	}
	obs, finish := runlog.Display(stderr, p, jr.done(), *quiet, *verbose)
	forks, xerr := executor.Execute(ctx, p, executor.Options{
		Executable: reg.Executable,
		Observer:   obs,
		Order:      order,
		FailFast:   *failFast,
		ProfileDir: profDir,
		Done:       jr.done(),
		Record:     jr.record(),
		Guard:      true,
		Warn:       func(msg string) { e.Errorf("%s", msg) },
		Grow: func(r *plan.Run, forks []protocol.ForkResult) executor.Growth {
			g := report.NextFork(r, forks)
			return executor.Growth{More: g.More, Iterations: g.Iterations, Estimate: g.Estimate}
		},
	})
	finish()
	env.End = time.Now()
	if resumed != nil {
		env.Start = resumed.Header.Started
	}
	rep := report.Build(p, forks, env)
	rep.Order = reportOrder(order)
	rep.Label, rep.Sources, rep.Builds = *label, sources(context.WithoutCancel(ctx), p, reg.Executable), buildInfos(p)
	rep.Complete = rep.Complete && ctx.Err() == nil && xerr == nil
	if err := jr.close(ctx.Err() == nil && xerr == nil, rep.Complete); err != nil && xerr == nil {
		xerr = err
	}
	// Both reports are attempted: one that cannot be written does not
	// lose the other.
	werr := WriteOutput(*out, stdout, func(w io.Writer) error { return renderer.Render(w, rep) })
	rerr := rd.write(rep, ctx.Err() == nil && xerr == nil)
	if werr != nil {
		e.Errorf("writing the report: %v%s", werr, jr.keptHint())
	}
	if rerr != nil {
		e.Errorf("--results-dir: writing the report: %v%s", rerr, jr.keptHint())
	}
	if werr != nil || rerr != nil {
		return 2
	}
	if err := jr.discard(); err != nil && xerr == nil {
		xerr = err
	}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "%v: the report holds the runs finished before it%s\n", context.Cause(ctx), resumeHint(jr))
		return interruptStatus(ctx)
	case xerr != nil:
		e.Errorf("%v: the batch stopped; the report holds the runs finished before", xerr)
		return 1
	case anyFailed(rep):
		return 1
	case *strict && rep.Warnings() > 0:
		e.Errorf("--strict: %d diagnostic warnings", rep.Warnings())
		return 1
	}
	return 0
}

func anyFailed(r *report.Report) bool {
	for i := range r.Runs {
		if r.Runs[i].Failed() {
			return true
		}
	}
	return false
}

// formatNames are the names run's --format accepts, sorted.
func (reg Registry) formatNames() []string {
	names := format.Names()
	for name := range reg.Formats {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// renderer returns the renderer of the named format: one of reg.Formats
// or of report/format. Asked for html where it is not linked, it says
// how to get the page.
func (reg Registry) renderer(name string) (format.Renderer, error) {
	if r, ok := reg.Formats[name]; ok {
		return r, nil
	}
	r, err := format.New(name)
	if err != nil {
		return nil, fmt.Errorf("unknown format %q (valid: %s)", name, strings.Join(reg.formatNames(), ", "))
	}
	return r, nil
}

// profileDir makes the profiles directory absolute (forks may run
// elsewhere) and creates it; "" stays "".
func profileDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return abs, os.MkdirAll(abs, 0o755)
}
