package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/runlog"
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/host"
)

// Run is the run command: it runs the specs with reg's benchmarks and
// forks — the suite's, the `package:` entries' test binaries — and
// reports. It returns the exit status. Its steps, each of which may
// stop the command: the flags, what the batch runs (prepare), the files
// it writes (openFiles), the batch (execute), its report (finish).
func Run(ctx context.Context, e *Env, args []string, reg Registry) int {
	b := &runBatch{e: e, unlock: func() {}}
	paths, status, ok := b.parseFlags(args, reg)
	if !ok {
		return status
	}
	defer func() { b.unlock() }()
	if status, ok := b.prepare(ctx, reg, paths); !ok {
		return status
	}
	if !b.openFiles() {
		return ExitUsage
	}
	rep, xerr := b.execute(ctx)
	return b.finish(ctx, rep, xerr)
}

func (b *runBatch) parseFlags(args []string, reg Registry) ([]string, int, bool) {
	fs := b.e.Flags("run [flags] SPEC...",
		"Run runs the specs and writes the report: a table on stdout unless\n"+
			"--format or --out say otherwise, the run log and progress on stderr.")
	b.findFormat = FormatFlag[format.Renderer](fs, reg.formats())
	fs.StringVar(&b.out, "out", "", "write the report to this file instead of stdout")
	fs.BoolVar(&b.quiet, "quiet", false, "no run log and no progress on stderr")
	fs.BoolVar(&b.failFast, "fail-on-error", false, "stop the batch at the first failed run (JMH -foe)")
	fs.StringVar(&b.profiles, "profiles", "", "write the pprof profiles of the cpu, heap, mutex and block profilers into this `directory`")
	fs.StringVar(&b.journal, "journal", "", "record every finished fork in this `file` (default: REPORT.journal with --out, none without)")
	fs.StringVar(&b.resume, "resume", "", "resume the batch recorded in this `journal`: run only the forks it lacks (SPECs default to the journal's)")
	fs.BoolVar(&b.strict, "strict", false, "exit 1 when any diagnostic is a warning, the environment check's included: a number not to be trusted fails the batch")
	fs.BoolVar(&b.verbose, "verbose", false, "show the JMH run log (instead of the progress bar on a terminal, of a line per run elsewhere), and the text table's footnotes in full")
	fs.StringVar(&b.label, "label", "", "record this `label` in the report, such as a CI build number (benchspec history shows it)")
	fs.StringVar(&b.resultsDir, "results-dir", "", "also keep the JSON report as `DIR`/SUITE/<UTC start>.json, with its journal, and as DIR/SUITE/latest.json")
	b.shard.register(fs, false)
	b.allowOutside = allowOutsideFlag(fs)
	b.orderF.register(fs)
	b.suite = suiteFlag(fs)
	b.fs = fs
	return b.e.Parse(fs, args)
}

// runBatch is one run command's batch as its steps make it.
type runBatch struct {
	e *Env
	runFlags
	reg      Registry // with --suite's benchmarks
	p        *plan.Plan
	order    executor.Order
	renderer format.Renderer
	profDir  string
	inputs   []NamedPath            // the files the batch reads
	resumed  *executor.JournalState // nil for a new batch
	unlock   func()                 // releases the journal resumed
	rd       *resultsDir            // nil without --results-dir
	jr       *runJournal            // nil without a journal
}

// runFlags are run's flags.
type runFlags struct {
	fs                                                *flag.FlagSet
	findFormat                                        func() (format.Renderer, error)
	out, profiles, journal, resume, label, resultsDir string
	quiet, failFast, strict, verbose                  bool
	suite                                             *string
	allowOutside                                      *bool
	shard                                             shardFlags
	orderF                                            orderFlags
}

// prepare checks the flags and the outputs, then loads the specs into
// the plan and picks the part and the order the batch runs: all before
// anything is measured.
func (b *runBatch) prepare(ctx context.Context, reg Registry, paths []string) (int, bool) {
	e := b.e
	var ok bool
	if b.reg, ok = reg.withSuite(ctx, e, *b.suite); !ok {
		return failStatus(ctx, ExitUsage), false
	}
	var err error
	if b.renderer, err = b.findFormat(); err != nil {
		return e.UsageError("--format: %v", err), false
	}
	if b.quiet && b.verbose {
		return e.UsageError("--quiet and --verbose contradict each other: give one"), false
	}
	if err := checkTempDir(); err != nil {
		return e.Fail(err), false
	}
	if _, ok := b.renderer.(format.Text); ok && b.verbose {
		b.renderer = format.Text{Verbose: true} // footnotes in full
	}
	if b.order, err = b.orderF.resolve(b.fs); err != nil {
		return e.UsageError("%v", err), false
	}
	if b.resumed, paths, b.unlock, ok = loadResume(e, b.resume, b.journal, paths); !ok {
		return ExitUsage, false
	}
	b.inputs = runInputs(b.reg.Executable, b.resume, paths)
	if err := checkRunOutputs(b.inputs, b.out, b.journal, b.resume); err != nil {
		return e.Fail(err), false
	}
	b.p, ok = load(ctx, e, paths, &b.reg, &loadOpts{allowOutside: *b.allowOutside, listPackages: true, quiet: b.quiet})
	if ok {
		b.p, ok = b.shard.apply(b.p, e)
	}
	if !ok {
		return failStatus(ctx, ExitUsage), false
	}
	if !b.orderF.given(b.fs) && slices.ContainsFunc(b.p.Runs, func(r plan.Run) bool { return r.Build != "" }) {
		// A spec's builds share the batch's minutes fork by fork, so
		// that a drift of the machine does not fall on one build.
		b.order = executor.Order{Kind: executor.OrderInterleaved}
	}
	b.profDir, err = profileDir(b.profiles)
	if err == nil && b.profDir != "" {
		err = checkProfileNames(b.p)
	}
	if err != nil {
		return e.Fail(fmt.Errorf("--profiles: %w", err)), false
	}
	return ExitOK, true
}

// openFiles decides where the batch's journal and results go, checks
// that none replaces an input, and opens the journal. It prints why it
// cannot and returns false.
func (b *runBatch) openFiles() bool {
	rd, jpath, implicitJournal, ok := batchFiles(b.p, b.resultsDir, b.resume, b.resumed, b.journal, b.out, b.e)
	if !ok {
		return false
	}
	err := CheckOverwrite(b.inputs, rd.outputs(b.out, jpath, b.resume))
	if err == nil && jpath != "" && b.resume == "" {
		err = checkJournalPath("the journal", jpath)
	}
	if err != nil {
		b.e.Errorf("%v", err)
	}
	if err == nil {
		b.jr, ok = openJournal(b.e, b.p, b.reg.Executable, jpath, b.resumed, implicitJournal)
	}
	if err != nil || !ok {
		rd.release()
		return false
	}
	b.rd = rd
	return true
}

// execute runs the batch, its progress on stderr, and builds its report.
func (b *runBatch) execute(ctx context.Context) (*report.Report, error) {
	stderr := b.e.Stderr
	if !b.quiet {
		b.jr.announce(stderr)
		announceBatch(stderr, b.p, b.order)
	}
	env := host.CollectEnv()
	if !b.quiet && env.Check != nil {
		_ = runlog.Environment(stderr, env.Check.Diagnostics, runlog.Width(stderr)) // a failed write to stderr has nowhere to go
	}
	obs, finish := runlog.Display(stderr, b.p, b.jr.done(), b.quiet, b.verbose)
	forks, xerr := executor.Execute(ctx, b.p, executor.Options{
		Executable: b.reg.Executable,
		Observer:   obs,
		Order:      b.order,
		FailFast:   b.failFast,
		ProfileDir: b.profDir,
		Done:       b.jr.done(),
		Record:     b.jr.record(),
		Guard:      true,
		Warn:       func(msg string) { b.e.Errorf("%s", msg) },
		Grow: func(r *plan.Run, forks []protocol.ForkResult) executor.Growth {
			g := report.NextFork(r, forks)
			return executor.Growth{More: g.More, Iterations: g.Iterations, Estimate: g.Estimate}
		},
	})
	finish()
	env.End = time.Now()
	if b.resumed != nil {
		env.Start = b.resumed.Header.Started
	}
	rep := report.Build(b.p, forks, env)
	rep.Order = reportOrder(b.order)
	rep.Label, rep.Sources, rep.Builds = b.label, sources(context.WithoutCancel(ctx), b.p, b.reg.Executable), buildInfos(b.p)
	rep.Complete = rep.Complete && ctx.Err() == nil && xerr == nil
	if err := b.jr.close(ctx.Err() == nil && xerr == nil, rep.Complete); err != nil && xerr == nil {
		xerr = err
	}
	return rep, xerr
}

// finish writes the report — to --out and the results directory, both
// attempted: one that cannot be written does not lose the other — and
// returns the exit status.
func (b *runBatch) finish(ctx context.Context, rep *report.Report, xerr error) int {
	e, jr := b.e, b.jr
	werr := WriteOutput(b.out, e.Stdout, func(w io.Writer) error { return b.renderer.Render(w, rep) })
	rerr := b.rd.write(rep, ctx.Err() == nil && xerr == nil)
	if werr != nil {
		e.Errorf("writing the report: %v%s", werr, jr.keptHint())
	}
	if rerr != nil {
		e.Errorf("--results-dir: writing the report: %v%s", rerr, jr.keptHint())
	}
	if werr != nil || rerr != nil {
		return ExitUsage
	}
	if err := jr.discard(); err != nil && xerr == nil {
		xerr = err
	}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(e.Stderr, "%v: the report holds the runs finished before it%s\n", context.Cause(ctx), resumeHint(jr))
		return interruptStatus(ctx)
	case xerr != nil:
		e.Errorf("%v: the batch stopped; the report holds the runs finished before", xerr)
		return ExitFail
	case anyFailed(rep):
		return ExitFail
	case b.strict && rep.Warnings() > 0:
		e.Errorf("--strict: %d diagnostic warnings", rep.Warnings())
		return ExitFail
	}
	return ExitOK
}

func anyFailed(r *report.Report) bool {
	for i := range r.Runs {
		if r.Runs[i].Failed() {
			return true
		}
	}
	return false
}

// formats is reg.Formats, or report/format's when it names none.
func (reg Registry) formats() format.List {
	if reg.Formats == nil {
		return format.Builtin()
	}
	return reg.Formats
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

// checkTempDir checks, before a batch, that the directory for temporary
// files (TMPDIR, else /tmp) is one a directory can be made in: every
// fork runs in a scratch directory there, and without one every fork
// would fail, each reading like a benchmark's failure (exit 1), where
// the cause is the environment (exit 2, up front).
func checkTempDir() error {
	tmp := os.TempDir()
	which := "the temporary directory " + tmp
	if v := os.Getenv("TMPDIR"); v != "" {
		which = "TMPDIR=" + v
	}
	dir, err := os.MkdirTemp(tmp, "benchspec-check-")
	if err != nil {
		return fmt.Errorf("%s: cannot make a directory in it (%v); every fork runs in a scratch directory there: set TMPDIR to a writable directory", which, err)
	}
	if err := os.Remove(dir); err != nil {
		return fmt.Errorf("%s: cannot remove a directory made in it (%v); set TMPDIR to a writable directory", which, err)
	}
	return nil
}
