package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/format"
	"github.com/benchspec/benchspec/internal/gcpause"
	"github.com/benchspec/benchspec/internal/host"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/runlog"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// Registry is what a suite binary offers the commands: its registered
// benchmarks, and how to run a fork in-process (forks: 0).
type Registry struct {
	Benchmarks []plan.Benchmark
	InProcess  executor.InProcessFunc
	// Executable overrides the binary re-executed for forks (tests).
	Executable string
	// Packages resolves the `package:` entries of specs into benchmarks
	// (gotest.Builder.Benchmarks: it builds the test binaries); nil
	// makes such entries an error. Errors are a spec.ErrorList.
	Packages func(ctx context.Context, specs []*spec.Spec) ([]plan.Benchmark, error)
	// Formats adds output formats to run's --format beyond
	// internal/format's: cmd/benchspec adds html, which a suite binary
	// does not link (see renderer).
	Formats map[string]format.Renderer
}

const suiteFooter = `A SPEC is a spec file or a directory of them (its *.yaml files, sorted).

Exit status: 0 all good, 1 a benchmark failed (or, with run --strict, a
diagnostic warned), 2 bad usage, an invalid spec or an output that cannot
be written, 130 or 143 a run interrupted by SIGINT or SIGTERM (its partial
report is written, and 'run --resume JOURNAL' finishes it).
`

// SuiteMain runs the command line of a suite binary (os.Args) with reg's
// benchmarks, SIGINT and SIGTERM interrupting a run, and returns the exit
// status.
func SuiteMain(reg Registry) int {
	ctx, stop := NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Suite(ctx, os.Args[1:], reg, os.Stdout, os.Stderr)
}

// Suite runs one command of a suite binary and returns its exit status.
func Suite(ctx context.Context, args []string, reg Registry, stdout, stderr io.Writer) int {
	p := &Program{
		Name: ProgName(),
		Commands: []Command{
			{"run", "SPEC...", "run the specs and report (table on stdout, progress on stderr)",
				func(e *Env, args []string) int { return Run(ctx, e, args, reg) }},
			{"list", "", "list the registered benchmarks and their parameters",
				func(e *Env, args []string) int { return listCmd(e, args, reg) }},
			{"validate", "SPEC...", "check the specs against the schema and this suite's benchmarks",
				func(e *Env, args []string) int { return Validate(ctx, e, args, &reg) }},
			{"plan", "SPEC...", "print the runs the specs expand to, with the estimated time",
				func(e *Env, args []string) int { return planCmd(ctx, e, args, reg) }},
		},
		Footer: suiteFooter,
	}
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
// package is built. Without opts.listPackages (validate), nothing of a
// package is built or run: its entries are checked as entries
// (plan.CheckPackageEntries) and left out of the plan.
//
// The garbage collector is off while the specs are parsed, within
// frontEndHeadroom bytes more than the process held before
// (gcpause.Off): a spec of 10 000 entries peaks at about 80 MiB.
// frontEndHeadroom bounds the memory the front end may add with the
// garbage collector off; beyond it, the collector runs.
const frontEndHeadroom = 128 << 20

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
	// What parsing allocates stays mostly live until the Spec is built:
	// the garbage collector is off meanwhile (package gcpause). It is on
	// again for the plan, whose large run slice its background marking
	// pages in on the other CPU while the runs are filled.
	restoreGC := gcpause.Off(frontEndHeadroom)
	partial := 0 // specs with errors, checked against the registry without them
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
		specs = append(specs, s)
	}
	restoreGC()
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
	if !opts.listPackages {
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
		if opts.listPackages && partial == 0 {
			var benchmarks []plan.Benchmark
			start := time.Now()
			benchmarks, err = withPackages(ctx, specs, *reg)
			if d := time.Since(start); err == nil && d >= time.Second && !opts.quiet {
				// Not in the estimate, which is of the runs: say where
				// the time went before the estimate is printed.
				fmt.Fprintf(e.Stderr, "# Test binaries of %s built and listed in %s (cached for the next run; not in the estimate)\n",
					plural(opts.packages, "package entry", "package entries"), d.Round(100*time.Millisecond))
			}
			if err == nil {
				p, err = plan.Build(specs, benchmarks)
			}
		} else {
			p, err = plan.Build(plan.WithoutPackages(specs), reg.Benchmarks)
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
		if partial > 0 {
			p = nil // of specs without their errors: a check, not a plan
		}
	}
	n := 0
	for _, path := range paths {
		for _, err := range byFile[path] {
			n += spec.PrintErrors(e.Stderr, err)
		}
		if len(byFile[path]) == 0 && verbose {
			fmt.Fprintf(e.Stderr, "%s: ok (%s)\n", path, plural(entries[path], "entry", "entries"))
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
	// lists their benchmarks (plan, run); validate does not.
	listPackages bool
	// quiet leaves out the note of how long that took (run --quiet).
	quiet bool

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
func Validate(ctx context.Context, e *Env, args []string, reg *Registry) int {
	fs := e.Flags("validate SPEC...",
		"Validate checks the specs (files, or directories of *.yaml files) and\n"+
			"reports, on stderr, every problem as path:line:col: message, or\n"+
			"\"path: ok\" for a valid file, then a summary line. It exits 0 if every\n"+
			"spec is valid and 2 otherwise.")
	allowOutside := allowOutsideFlag(fs)
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	opts := &loadOpts{verbose: true, allowOutside: *allowOutside}
	p, ok := load(ctx, e, paths, reg, opts)
	if !ok {
		return ExitUsage
	}
	if p != nil {
		fmt.Fprintf(e.Stderr, "%d runs, estimated %s", len(p.Runs), p.Estimate.Round(time.Second))
		if n := opts.packages; n > 0 {
			fmt.Fprintf(e.Stderr, ", without the runs of %s: validate builds and runs nothing of a package; plan lists their runs", plural(n, "package entry", "package entries"))
		}
		fmt.Fprintln(e.Stderr)
	}
	return ExitOK
}

func listCmd(e *Env, args []string, reg Registry) int {
	fs := e.Flags("list", "List prints the registered benchmarks, one a line, with their parameters.")
	pos, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return e.UsageError("list takes no arguments, got %q", pos)
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
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
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
		return ExitUsage
	}
	var parts []int
	if spread > 0 {
		parts = plan.Assign(p, spread)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	header := "#\tBenchmark\tParams\tMode\tThreads\tForks\tWarmup\tMeasurement\tEstimate"
	if parts != nil {
		header += "\tShard"
	}
	fmt.Fprintln(tw, header)
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
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.Index+1, r.Benchmark, strings.Join(ps, " "), r.Mode, threads, forks,
			phaseString(s.Warmup, r.Mode), meas, r.Estimate.Round(time.Millisecond))
		if parts != nil {
			fmt.Fprintf(tw, "\t%d/%d", parts[r.Index], spread)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
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
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	renderer, err := reg.renderer(*formatName)
	if err != nil {
		return e.UsageError("--format: %v", err)
	}
	if _, ok := renderer.(format.Text); ok && *verbose {
		renderer = format.Text{Verbose: true} // footnotes in full
	}
	order, err := orderF.resolve(fs)
	if err != nil {
		return e.UsageError("%v", err)
	}
	resumed, paths, ok := loadResume(e, *resume, *journalFlag, paths)
	if !ok {
		return 2
	}
	p, ok := load(ctx, e, paths, &reg, &loadOpts{allowOutside: *allowOutside, listPackages: true, quiet: *quiet})
	if ok {
		p, ok = shard.apply(p, e)
	}
	if !ok {
		return 2
	}
	profDir, err := profileDir(*profiles)
	if err != nil {
		e.Errorf("--profiles: %v", err)
		return 2
	}
	rd, jpath, implicitJournal, ok := batchFiles(p, *resultsRoot, *resume, resumed, *journalFlag, *out, e)
	if !ok {
		return 2
	}
	jr, ok := openJournal(e, p, reg.Executable, jpath, resumed)
	if jr != nil {
		jr.temporary = implicitJournal
	}
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
	obs, finish := display(stderr, p, *quiet, *verbose)
	forks, xerr := executor.Execute(ctx, p, executor.Options{
		Executable: reg.Executable,
		Observer:   obs,
		Order:      order,
		InProcess:  reg.InProcess,
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
	rep.Label, rep.Sources = *label, sources(context.WithoutCancel(ctx), p)
	rep.Complete = rep.Complete && ctx.Err() == nil && xerr == nil
	if err := jr.close(ctx.Err() == nil && xerr == nil, rep.Complete); err != nil && xerr == nil {
		xerr = err
	}
	if err := WriteOutput(*out, stdout, func(w io.Writer) error { return renderer.Render(w, rep) }); err != nil {
		e.Errorf("writing the report: %v", err)
		return 2
	}
	if err := rd.write(rep, ctx.Err() == nil && xerr == nil); err != nil {
		e.Errorf("--results-dir: writing the report: %v", err)
		return 2
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

// htmlFormat is the format a suite binary does not link: its charts would
// link gonum/plot, and every fork — a suite binary started afresh — would
// pay for its initialisation at each start.
const htmlFormat = "html"

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
// or of internal/format. Asked for html where it is not linked, it says
// how to get the page.
func (reg Registry) renderer(name string) (format.Renderer, error) {
	if r, ok := reg.Formats[name]; ok {
		return r, nil
	}
	if name == htmlFormat {
		return nil, errors.New("html is not built into a suite binary (its charts would slow every fork's start): " +
			"run with --format json --out r.json, then: benchspec report --format html r.json")
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
