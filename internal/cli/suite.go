package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/format"
	"github.com/benchspec/benchspec/internal/host"
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

const suiteUsage = `usage: SUITE <command> [flags] [args]

commands:
  run SPEC...       run the specs and report (table on stdout, progress on stderr)
  list              list the registered benchmarks and their parameters
  validate SPEC...  check the specs against the schema and this suite's benchmarks
  plan SPEC...      print the runs the specs expand to, with the estimated time

A SPEC is a spec file or a directory of them (its *.yaml files, sorted).

Exit status: 0 all good, 1 a benchmark failed (or, with run --strict, a
diagnostic warned), 2 bad usage or an invalid spec, 130 or 143 a run
interrupted by SIGINT or SIGTERM (its partial report is written, and
'run --resume JOURNAL' finishes it).
Run 'SUITE <command> --help' for a command's flags.
`

// Suite runs one command of a suite binary and returns its exit status.
func Suite(ctx context.Context, args []string, reg Registry, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, suiteUsage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return runCmd(ctx, rest, reg, stdout, stderr)
	case "list":
		return listCmd(rest, reg, stdout, stderr)
	case "validate":
		return validateCmd(ctx, rest, reg, stderr)
	case "plan":
		return planCmd(ctx, rest, reg, stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, suiteUsage)
		return 0
	}
	fmt.Fprintf(stderr, "unknown command %q\n\n%s", cmd, suiteUsage)
	return 2
}

// load parses the specs (files, and directories of *.yaml files: see
// specFiles) and builds one plan of them all, printing every problem as
// path:line:col: message and a summary. ok is false when there were any.
func load(ctx context.Context, paths []string, reg Registry, stderr io.Writer) (*plan.Plan, bool) {
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "no spec files given")
		return nil, false
	}
	paths, err := specFiles(paths)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	var specs []*spec.Spec
	n := 0
	for _, path := range paths {
		s, err := spec.ParseFile(path)
		if err != nil {
			n += spec.PrintErrors(stderr, err)
			continue
		}
		specs = append(specs, s)
	}
	if n == 0 {
		benchmarks, err := withPackages(ctx, specs, reg)
		var p *plan.Plan
		if err == nil {
			p, err = plan.Build(specs, benchmarks)
		}
		if err == nil {
			return p, true
		}
		n += spec.PrintErrors(stderr, err)
	}
	fmt.Fprintln(stderr, spec.Summary(len(paths), n))
	return nil, false
}

func validateCmd(ctx context.Context, args []string, reg Registry, stderr io.Writer) int {
	fs := newFlagSet("validate", "SUITE validate SPEC...", stderr)
	paths, err := parse(fs, args)
	if err != nil {
		return usageStatus(err)
	}
	p, ok := load(ctx, paths, reg, stderr)
	if !ok {
		return 2
	}
	fmt.Fprintf(stderr, "%s: ok (%d runs, estimated %s)\n", strings.Join(paths, ", "), len(p.Runs), p.Estimate.Round(time.Second))
	return 0
}

func listCmd(args []string, reg Registry, stdout, stderr io.Writer) int {
	fs := newFlagSet("list", "SUITE list", stderr)
	if _, err := parse(fs, args); err != nil {
		return usageStatus(err)
	}
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

func planCmd(ctx context.Context, args []string, reg Registry, stdout, stderr io.Writer) int {
	fs := newFlagSet("plan", "SUITE plan [--shard i/n | --shards n] SPEC...", stderr)
	var shard shardFlags
	shard.register(fs)
	paths, err := parse(fs, args)
	if err != nil {
		return usageStatus(err)
	}
	spread := 0 // --shards alone: show every run's part
	if shard.shards > 0 && !shard.fromEnv && shard.shard == "" {
		spread, shard.shards = shard.shards, 0
	}
	p, ok := load(ctx, paths, reg, stderr)
	if ok {
		p, ok = shard.apply(p, stderr)
	}
	if !ok {
		return 2
	}
	var parts []int
	if spread > 0 {
		parts = plan.Assign(p, spread)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	header := "#\tBenchmark\tParams\tMode\tForks\tWarmup\tMeasurement\tEstimate"
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
		if s.WarmupForks > 0 {
			forks = fmt.Sprintf("%d+%d", s.WarmupForks, s.Forks)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.Index+1, r.Benchmark, strings.Join(ps, " "), r.Mode, forks,
			phaseString(s.Warmup, r.Mode), phaseString(s.Measurement, r.Mode), r.Estimate.Round(time.Millisecond))
		if parts != nil {
			fmt.Fprintf(tw, "\t%d/%d", parts[r.Index], spread)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if s := p.Shard; s != nil {
		fmt.Fprintf(stdout, "\nshard %s: %d of %d runs, estimated %s\n", s, len(p.Runs), len(s.Planned), p.Estimate.Round(time.Second))
		return 0
	}
	fmt.Fprintf(stdout, "\n%d runs, estimated %s\n", len(p.Runs), p.Estimate.Round(time.Second))
	for i := 1; i <= spread; i++ {
		var n int
		var est time.Duration
		for j, part := range parts {
			if part == i {
				n++
				est += p.Runs[j].Estimate
			}
		}
		fmt.Fprintf(stdout, "shard %d/%d: %d runs, estimated %s\n", i, spread, n, est.Round(time.Second))
	}
	return 0
}

func phaseString(it spec.Iterations, mode string) string {
	if mode == spec.ModeSingleShot {
		return fmt.Sprintf("%d × batch %d", it.Iterations, it.BatchSize)
	}
	s := fmt.Sprintf("%d × %s", it.Iterations, it.Time)
	if it.BatchSize > 1 {
		s += fmt.Sprintf(" (batch %d)", it.BatchSize)
	}
	return s
}

// Run is the run command, for a binary other than a suite (the
// standalone benchspec CLI): it runs the specs with reg's benchmarks and
// forks — for benchspec, the `package:` entries' test binaries — and
// reports as a suite's run does, with the same flags. usage is the
// command's synopsis. Run returns the exit status.
func Run(ctx context.Context, usage string, args []string, reg Registry, stdout, stderr io.Writer) int {
	return run(ctx, usage, args, reg, stdout, stderr)
}

func runCmd(ctx context.Context, args []string, reg Registry, stdout, stderr io.Writer) int {
	return run(ctx, "SUITE run [flags] SPEC...", args, reg, stdout, stderr)
}

func run(ctx context.Context, usage string, args []string, reg Registry, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", usage, stderr)
	formatName := fs.String("format", "text", "output format: "+strings.Join(reg.formatNames(), ", "))
	out := fs.String("out", "", "write the report to this file instead of stdout")
	quiet := fs.Bool("quiet", false, "no run log and no progress on stderr")
	failFast := fs.Bool("fail-on-error", false, "stop the batch at the first failed run (JMH -foe)")
	profiles := fs.String("profiles", "", "write the pprof profiles of the cpu, heap, mutex and block profilers into this `directory`")
	journalFlag := fs.String("journal", "", "record every finished fork in this `file` (default: REPORT.journal with --out, none without)")
	resume := fs.String("resume", "", "resume the batch recorded in this `journal`: run only the forks it lacks (SPECs default to the journal's)")
	strict := fs.Bool("strict", false, "exit 1 when any diagnostic is a warning, the environment check's included: a number not to be trusted fails the batch")
	verbose := fs.Bool("verbose", false, "on a terminal, show the JMH run log instead of the progress bar")
	resultsRoot := fs.String("results-dir", "", "also keep the JSON report as `DIR`/SUITE/<UTC start>.json, with its journal, and as DIR/SUITE/latest.json")
	var shard shardFlags
	shard.register(fs)
	var orderF orderFlags
	orderF.register(fs)
	paths, err := parse(fs, args)
	if err != nil {
		return usageStatus(err)
	}
	renderer, err := reg.renderer(*formatName)
	if err != nil {
		fmt.Fprintf(stderr, "run: --format: %v\n", err)
		return 2
	}
	order, err := orderF.resolve(fs)
	if err != nil {
		fmt.Fprintf(stderr, "run: %v\n", err)
		return 2
	}
	resumed, paths, ok := loadResume(*resume, *journalFlag, paths, stderr)
	if !ok {
		return 2
	}
	p, ok := load(ctx, paths, reg, stderr)
	if ok {
		p, ok = shard.apply(p, stderr)
	}
	if !ok {
		return 2
	}
	profDir, err := profileDir(*profiles)
	if err != nil {
		fmt.Fprintf(stderr, "run: --profiles: %v\n", err)
		return 2
	}
	rd, jpath, ok := batchFiles(p, *resultsRoot, *resume, resumed, *journalFlag, *out, stderr)
	if !ok {
		return 2
	}
	jr, ok := openJournal(p, reg.Executable, jpath, resumed, stderr)
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
		for _, d := range env.Check.Diagnostics {
			fmt.Fprintf(stderr, "# Environment: %s %s: %s\n", d.Severity, d.Code, d.Message)
		}
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
		Warn:       func(msg string) { fmt.Fprintf(stderr, "run: %s\n", msg) },
	})
	finish()
	env.End = time.Now()
	if resumed != nil {
		env.Start = resumed.Header.Started
	}
	rep := report.Build(p, forks, env)
	rep.Order = reportOrder(order)
	rep.Complete = rep.Complete && ctx.Err() == nil && xerr == nil
	if err := jr.close(ctx.Err() == nil && xerr == nil, rep.Complete); err != nil && xerr == nil {
		xerr = err
	}
	if err := write(renderer, rep, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "run: writing the report: %v\n", err)
		return 2
	}
	if err := rd.write(rep, ctx.Err() == nil && xerr == nil); err != nil {
		fmt.Fprintf(stderr, "run: --results-dir: writing the report: %v\n", err)
		return 2
	}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "%v: the report holds the runs finished before it%s\n", context.Cause(ctx), resumeHint(jr))
		return interruptStatus(ctx)
	case xerr != nil:
		fmt.Fprintf(stderr, "run: %v: the batch stopped; the report holds the runs finished before\n", xerr)
		return 1
	case anyFailed(rep):
		return 1
	case *strict && rep.Warnings() > 0:
		fmt.Fprintf(stderr, "run: --strict: %d diagnostic warnings\n", rep.Warnings())
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

// write renders the report to path (atomically: see writeAtomic) or to
// stdout.
func write(r format.Renderer, rep *report.Report, path string, stdout io.Writer) error {
	if path == "" {
		return r.Render(stdout, rep)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, rep); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
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
