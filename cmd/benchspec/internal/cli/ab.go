package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/format"
)

// pairedPlan is one plan of the runs both builds have, A's first: run i
// of A is paired with run i+n of B (executor.OrderPaired). Runs of one
// build only are returned by key.
func pairedPlan(a, b *plan.Plan, suiteA, suiteB string) (p *plan.Plan, onlyA, onlyB []string) {
	inB := map[string]*plan.Run{}
	for i := range b.Runs {
		inB[b.Runs[i].Key] = &b.Runs[i]
	}
	var ra, rb []plan.Run
	seen := map[string]bool{}
	for _, r := range a.Runs {
		seen[r.Key] = true
		rB, ok := inB[r.Key]
		if !ok {
			onlyA = append(onlyA, r.Key)
			continue
		}
		// A run of a spec's build has that build's binary of its side.
		r.Executable = cmp.Or(r.Executable, suiteA)
		other := *rB
		other.Executable = cmp.Or(other.Executable, suiteB)
		ra, rb = append(ra, r), append(rb, other)
	}
	for _, r := range b.Runs {
		if !seen[r.Key] {
			onlyB = append(onlyB, r.Key)
		}
	}
	p = &plan.Plan{Suite: a.Suite, Specs: a.Specs}
	p.Runs = append(ra, rb...)
	for i := range p.Runs {
		p.Runs[i].Index = i
		p.Estimate = plan.AddEstimates(p.Estimate, p.Runs[i].Estimate)
	}
	return p, onlyA, onlyB
}

// splitPaired takes the forks of a paired plan apart into each build's
// plan and forks, runs renumbered as in a batch of that build alone.
func splitPaired(p *plan.Plan, forks []protocol.ForkResult) (pa, pb *plan.Plan, fa, fb []protocol.ForkResult) {
	n := len(p.Runs) / 2
	pa = &plan.Plan{Suite: p.Suite, Specs: p.Specs, Runs: append([]plan.Run(nil), p.Runs[:n]...)}
	pb = &plan.Plan{Suite: p.Suite, Specs: p.Specs, Runs: append([]plan.Run(nil), p.Runs[n:]...)}
	for i := range pb.Runs {
		pb.Runs[i].Index = i
	}
	for _, f := range forks {
		if f.Run < n {
			fa = append(fa, f)
		} else {
			f.Run -= n
			fb = append(fb, f)
		}
	}
	return pa, pb, fa, fb
}

// duetPairs counts the pairs of p's Duetable runs that both reports
// hold, and of them those whose two forks ran in a duet.
func duetPairs(p *plan.Plan, base, next *report.Report) (inStep, all int) {
	measured := func(rep *report.Report, key string) []report.Fork {
		var out []report.Fork
		for i := range rep.Runs {
			if rep.Runs[i].Key == key {
				for _, f := range rep.Runs[i].Forks {
					if !f.Warmup {
						out = append(out, f)
					}
				}
			}
		}
		return out
	}
	for _, r := range p.Runs[:len(p.Runs)/2] {
		if !executor.Duetable(&r) {
			continue
		}
		a, b := measured(base, r.Key), measured(next, r.Key)
		for k := range min(len(a), len(b)) {
			all++
			if a[k].Duet && b[k].Duet {
				inStep++
			}
		}
	}
	return inStep, all
}

// duetNotes say which pairs of a duet batch did not run as duets, and
// why, in the comparison itself (the executor's warnings go to stderr,
// not to the output a reader keeps).
func duetNotes(p *plan.Plan, base, next *report.Report) []string {
	var notes []string
	solo := 0
	for _, r := range p.Runs[:len(p.Runs)/2] {
		if !executor.Duetable(&r) {
			solo++
		}
	}
	if solo > 0 {
		notes = append(notes, fmt.Sprintf("%d run(s) of package benchmarks or of more than one thread ran their pairs one fork after the other, not in a duet (a test binary has no barrier; a duet gives each fork one CPU)", solo))
	}
	if in, all := duetPairs(p, base, next); in < all {
		notes = append(notes, fmt.Sprintf("%d of the %d pairs that could run as duets did, their iterations in step; the other %d ran one fork after the other, since three duets in a row did not get a CPU for each fork (another process took one, or the benchmark waits rather than computes), and were paired by their forks' means", in, all, all-in))
	}
	return notes
}

// stopNotes records on each pair why ab stopped adding pairs to it and,
// for one left undecided, what would decide it: more time, or a
// threshold the interval it reached would settle.
func stopNotes(res *compare.Result, b *abBatch, lim abLimits) {
	pairs := 0
	for i := range len(b.p.Runs) / 2 {
		pairs += b.pairs[i]
	}
	for i := range res.Pairs {
		pr := &res.Pairs[i]
		pr.Stop = b.stops[pr.Key]
		if pr.Verdict != compare.Inconclusive || pr.Stop == "" {
			continue
		}
		have := pr.Base.Forks
		switch pr.Stop {
		case compare.StopBudget:
			pr.Reason += fmt.Sprintf("; it stopped at --max-time %s after %d pairs", lim.maxTime, have)
			if pr.ForksNeeded > have && pairs > 0 {
				more := time.Duration(float64(b.wall) / float64(pairs) * float64(pr.ForksNeeded-have))
				pr.Reason += fmt.Sprintf(", and --max-time %s would give it about that many", (b.wall + more).Round(time.Second))
			}
		case compare.StopBound:
			pr.Reason += fmt.Sprintf("; it stopped at --max-pairs %d", lim.maxPairs)
		}
		pr.Reason += thresholdAdvice(pr)
	}
}

// thresholdAdvice names the threshold at which the interval an
// undecided pair reached would have been unchanged: any above the
// interval's farther end. (An undecided interval holds 0, so no
// threshold would make it a change.)
func thresholdAdvice(pr *compare.Pair) string {
	lo, hi := float64(pr.ChangeCI[0]), float64(pr.ChangeCI[1])
	if !pr.ChangeCI[0].Valid() || !pr.ChangeCI[1].Valid() {
		return ""
	}
	if w := max(-lo, hi); w < 1 {
		return fmt.Sprintf("; --threshold %.1f%% would call it unchanged", math.Ceil(1000*w+1e-9)/10)
	}
	return ""
}

// pairedOrder is, per row key, the builds of the measured forks in the
// order the batch runs them: what compare.ComparePairedReports pairs. A
// group's members' rows have their group's forks, so its order.
func pairedOrder(p *plan.Plan, order executor.Order) map[string][]compare.Build {
	n := len(p.Runs) / 2
	out := map[string][]compare.Build{}
	keys := make([][]string, len(p.Runs))
	for i := range p.Runs {
		keys[i] = rowKeys(&p.Runs[i])
	}
	for _, s := range order.Schedule(p) {
		r := &p.Runs[s.Run]
		if s.Fork <= r.Settings.WarmupForks {
			continue
		}
		b := compare.BuildA
		if s.Run >= n {
			b = compare.BuildB
		}
		for _, k := range keys[s.Run] {
			out[k] = append(out[k], b)
		}
	}
	return out
}

// rowKeys are the keys of the report's rows of plan run r (report.Build):
// its own, then a group's members'.
func rowKeys(r *plan.Run) []string {
	keys := []string{r.Key}
	for i := range r.Group {
		keys = append(keys, r.MemberRun(i).Key)
	}
	return keys
}

// groupProfileNotes replace, on a member's row, ExplainPairs' note that
// its forks kept no CPU profile: the fork profiled all its members at
// once, and the profiles are on the group's row.
func groupProfileNotes(res *compare.Result, base *report.Report) {
	group := map[string]string{}
	for _, r := range base.Runs {
		if r.Member != "" {
			group[r.Key] = r.Group
		}
	}
	for i := range res.Pairs {
		if g := group[res.Pairs[i].Key]; g != "" && res.Pairs[i].WhereNote != "" && res.Pairs[i].Where == nil {
			res.Pairs[i].WhereNote = fmt.Sprintf("a member's CPU time is profiled with the whole group's: see %s", g)
		}
	}
}

const abDoc = `Ab runs two builds of a suite in one batch and judges the change between
them from pairs of forks that ran in the same seconds. BASE and NEW are
each a suite binary, a git revision of the repository holding the current
directory, or "." for the working tree as it stands: benchspec builds
--suite (the suite's main package, and the specs' package: entries) at
that revision, in a checkout kept by commit in its cache. The forks of
the two builds alternate in randomized ABBA blocks (A B B A or B A A B):
fork k of BASE runs beside fork k of NEW, so that a drift of the machine
hits both. With --duet the two forks of a pair run at the same time, on
two CPUs, each waiting for the other before every iteration, and the
pair's ratio is taken iteration by iteration; three pairs in a row whose
forks did not get a CPU each (a busy neighbour) turn the rest of the
batch to one fork after the other, the default, and so do package
benchmarks and runs of more than one
thread. Where a spec sets no forks, warmup or measurement, ab uses its
own: 10 pairs to start, of 1 warmup and 2 measurement iterations of
20 ms. It then adds pairs to each run whose change is not yet decided,
until its interval decides, the run reaches --max-pairs, or the batch's
--max-time runs out; decided runs stop and leave the time to the rest.
A run's change is the centre of its pairs' log ratios with a confidence
sequence, valid however often ab looks: within ±--threshold it is
unchanged; else wholly above or below 0 a regression or an improvement;
otherwise inconclusive, with what would decide it. The runs are one
family (Bonferroni) at --alpha 0.01. Output: the comparison, then both
builds' reports (--format json: {"comparison", "base", "new"}). It exits
1 on a regression or a failed run of NEW, 2 on bad usage, and 0
otherwise.`

func abCmd(ctx context.Context, e *Env, args []string, reg Registry) int {
	fs := e.Flags("ab --base BASE --new NEW [--suite PKG] [flags] SPEC...", abDoc)
	baseFlag := fs.String("base", "", "the build compared against: a suite `binary`, a git revision, or . (the working tree)")
	newFlag := fs.String("new", "", "the build judged: a suite `binary`, a git revision, or . (the working tree)")
	suitePkg := fs.String("suite", "", "the suite's main `package` (./bench), built for a revision or the working tree")
	threshold := fs.String("threshold", "1%", "smallest change that counts, in percent: an interval within it is unchanged")
	alpha := fs.Float64("alpha", compare.SequenceAlpha, "significance level for the family of all runs, however often ab looks")
	findFormat := FormatFlag[format.ABRenderer](fs, reg.formats())
	out := fs.String("out", "", "write the output to this `file` instead of stdout")
	quiet := fs.Bool("quiet", false, "no run log and no progress on stderr")
	// One fork after the other is the default: on the 2-core VM measured
	// (docs/statistics.md), a duet's two forks disturbed each other more
	// than the moments they shared cancelled.
	duet := fs.Bool("duet", false, "run each pair's two forks at the same time on two CPUs, iterations in step (default: one after the other)")
	allowOutside := allowOutsideFlag(fs)
	maxTime := fs.Duration("max-time", 0, fmt.Sprintf("the batch's time for adding pairs to undecided runs (default %d s a run, what go test -count 10 -benchtime 500ms of both builds takes)", abSecondsPerRun))
	maxPairs := fs.Int("max-pairs", 1000, "the most pairs a run takes")
	explainFlag := fs.Bool("explain", false, "profile the measured forks (CPU) and name, for each regression or improvement, the functions whose CPU time per op changed most")
	profiles := fs.String("profiles", "", "with --explain, keep the forks' CPU profiles in this `directory` and write each explained run's merged base and new profiles there (go tool pprof -diff_base)")
	paths, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if *baseFlag == "" || *newFlag == "" {
		return e.UsageError("ab needs --base and --new")
	}
	t, err := ParsePercent(*threshold)
	if err != nil {
		return e.UsageError("--threshold: %v", err)
	}
	if !(*alpha > 0 && *alpha < 1) {
		return e.UsageError("--alpha: %g is not between 0 and 1", *alpha)
	}
	render, err := findFormat()
	if err != nil {
		return e.UsageError("--format: %v", err)
	}
	if *maxTime < 0 {
		return e.UsageError("--max-time: %v is negative", *maxTime)
	}
	if *maxPairs < 2 {
		return e.UsageError("--max-pairs: %d; a test needs at least 2 pairs", *maxPairs)
	}
	if len(paths) == 0 {
		return e.UsageError("no spec files given")
	}
	if *profiles != "" && !*explainFlag {
		return e.UsageError("--profiles needs --explain: ab keeps profiles only to explain a change")
	}
	specs, err := specFiles(paths)
	if err != nil {
		e.Errorf("%v", err)
		return ExitUsage
	}
	if !e.OutputsOK(append(Inputs("the spec", specs...), Inputs("a suite binary", *baseFlag, *newFlag)...), NamedPath{"--out", *out}) {
		return ExitUsage
	}
	var plans [2]*plan.Plan
	var suites [2]string
	for i, side := range []string{*baseFlag, *newFlag} {
		r, sideSpecs, err := reg.side(ctx, side, *suitePkg, specs)
		if err != nil {
			e.Errorf("--%s %s: %v", [2]string{"base", "new"}[i], side, err)
			return failStatus(ctx, ExitUsage) // an interrupted build is no bad input
		}
		p, ok := load(ctx, e, sideSpecs, &r, &loadOpts{listPackages: true, paired: true, allowOutside: *allowOutside})
		if !ok {
			return failStatus(ctx, ExitUsage)
		}
		plans[i], suites[i] = p, r.Executable
	}
	p, onlyA, onlyB := pairedPlan(plans[0], plans[1], suites[0], suites[1])
	for _, r := range p.Runs {
		if r.Settings.Forks < 2 {
			e.Errorf("%s: forks: %d; ab pairs forks of the two builds and needs at least 2 (more pairs, a narrower interval)", r.Key, r.Settings.Forks)
			return ExitUsage
		}
	}
	if len(p.Runs) == 0 {
		e.Errorf("the two builds have no run in common (only in %s: %d, only in %s: %d)", *baseFlag, len(onlyA), *newFlag, len(onlyB))
		return ExitUsage
	}
	order := executor.Order{Kind: executor.OrderPaired, Seed: rand.Uint64()}
	if *duet && runtime.NumCPU() >= 2 {
		order.Kind = executor.OrderDuet
	}
	lim := abLimits{maxTime: *maxTime, maxPairs: *maxPairs}
	if lim.maxTime == 0 {
		lim.maxTime = time.Duration(abSecondsPerRun*len(p.Runs)/2) * time.Second
	}
	opts := compare.Options{Threshold: t, Alpha: *alpha}
	profDir, cleanup, err := forkProfileDir(*explainFlag, *profiles)
	if err != nil {
		e.Errorf("--profiles: %v", err)
		return ExitUsage
	}
	defer cleanup()
	batch, res, xerr := runSequential(ctx, e, p, order, lim, opts, *quiet, profDir)
	if res == nil {
		if xerr == nil {
			xerr = errors.New("no pair ran")
		}
		return e.Fail(xerr)
	}
	base, next := batch.reports(ctx)
	for _, r := range []*report.Report{base, next} {
		r.Complete = r.Complete && ctx.Err() == nil && xerr == nil
	}
	res.BaseName, res.NewName = *baseFlag, *newFlag
	stopNotes(res, batch, lim)
	if order.Kind == executor.OrderDuet {
		res.Notes = append(res.Notes, duetNotes(batch.p, base, next)...)
	}
	for i, keys := range [2][]string{onlyA, onlyB} {
		for _, k := range keys {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: only %s has it; not run", k, [2]string{*baseFlag, *newFlag}[i]))
		}
	}
	if *explainFlag {
		if err := ExplainPairs(res, base, next, *profiles); err != nil {
			e.Errorf("%v", err)
			xerr = errors.Join(xerr, err)
		}
		groupProfileNotes(res, base)
		if *profiles == "" {
			forgetProfiles(base, next) // in a directory removed on return
		}
	}
	err = WriteOutput(*out, e.Stdout, func(w io.Writer) error { return render.AB(w, res, base, next) })
	if err != nil {
		e.Errorf("writing the output: %v", err)
		return ExitUsage
	}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(e.Stderr, "%v: the comparison holds the runs finished before it\n", context.Cause(ctx))
		return interruptStatus(ctx)
	case xerr != nil:
		e.Errorf("%v: the batch stopped", xerr)
		return ExitFail
	case res.Worse():
		return ExitFail
	}
	return ExitOK
}

// ParsePercent reads "5%" or "5" as 0.05.
func ParsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v >= 0 && v < math.Inf(1)) {
		return 0, fmt.Errorf("%q is not a percentage such as 5%%", s)
	}
	return v / 100, nil
}
