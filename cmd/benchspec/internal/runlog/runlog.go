// Package runlog writes what a batch does while it runs: the JMH-like
// run log (Log), the progress displays (a bar on a terminal, a line per
// run or fork elsewhere), both executor.Observers that Display chooses
// between, and the estimate of the time left (ETA) they share. It is
// for humans on stderr; the numbers it shows are computed as report.Build
// computes them (report.BuildRun, report.IterationScore) and formatted as
// the result table formats them (report/format).
package runlog

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/spec"
)

// Log is an executor.Observer that writes a JMH-like run log: a header
// per run, progress and ETA before each fork, a line per iteration, fork
// failures with the tail of their output, and a result summary per run.
// It is meant for humans on stderr; its format is not stable.
//
// When the forks of different runs alternate (an interleaved or random
// order), the header comes before a run's first fork only, and every
// other fork that follows another run's starts with a short
// "# Benchmark: name (params) mode, fork i of n" line saying whose it is.
type Log struct {
	w    io.Writer
	plan *plan.Plan
	err  error

	est   *ETA
	last  int // index of the run whose fork or header came last; -1 before any
	width int // to wrap diagnostics to (Width)
}

var _ executor.Observer = (*Log)(nil)

// New returns a run log of the plan p that writes to w.
func New(w io.Writer, p *plan.Plan) *Log {
	return &Log{w: w, plan: p, est: NewETA(p), last: -1, width: Width(w)}
}

// Err returns the first error writing the log, if any.
func (l *Log) Err() error { return l.err }

func (l *Log) printf(format string, args ...any) {
	if l.err == nil {
		// Names, failure messages and output come from the benchmark:
		// no escape sequence of theirs reaches the terminal as one.
		for i, a := range args {
			switch a := a.(type) {
			case string:
				args[i] = termsafe.String(a)
			case error:
				args[i] = termsafe.String(a.Error())
			}
		}
		_, l.err = fmt.Fprintf(l.w, format, args...)
	}
}

// RunStart writes the run's header.
func (l *Log) RunStart(r *plan.Run) {
	s := &r.Settings
	l.last = r.Index
	l.printf("# Benchmark: %s\n", r.Benchmark)
	if len(r.Params) > 0 {
		l.printf("# Parameters: %s\n", params(r))
	}
	l.printf("# Mode: %s\n", r.Mode.Description())
	l.printf("# Warmup: %s\n", phaseLine(r.Mode, s.Warmup))
	l.printf("# Measurement: %s\n", phaseLine(r.Mode, s.Measurement))
	l.printf("# Timeout: %s per iteration\n", format.Duration(s.Timeout))
	l.printf("# Threads: %s\n", threadsLine(s.Threads))
	l.printf("# Forks: %s\n\n", forksLine(s.Forks, s.WarmupForks))
}

// ForkStart writes the progress of the plan and the fork's number.
func (l *Log) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	pct := 0.0
	if all > 0 {
		pct = 100 * float64(done) / float64(all)
	}
	if l.last != r.Index {
		l.last = r.Index
		l.printf("# Benchmark: %s, %s\n", forkLabel(r), forkOrdinal(fork, total, warmup, r.Settings.WarmupForks))
	}
	l.printf("# Run progress: %.2f%% complete, ETA %s\n", pct, clock(l.est.Left(done, all, 0)))
	if w := r.Settings.WarmupForks; warmup {
		l.printf("# Warmup Fork: %d of %d\n", fork, w)
	} else {
		l.printf("# Fork: %d of %d\n", fork-w, total-w)
	}
}

// forkLabel names a run in the short line of an interleaved fork:
// "sort.Ints (size = 10) avgt", as the result table labels it.
func forkLabel(r *plan.Run) string {
	label := (&report.Run{Key: r.Key, Benchmark: r.Benchmark, Threads: r.Settings.Threads}).DisplayName()
	if ps := params(r); ps != "" {
		label += " " + ps
	}
	return label + " " + r.Mode.String()
}

// params are r's parameters as the result table shows them.
func params(r *plan.Run) string {
	ps := make(map[string]string, len(r.Params))
	for _, p := range r.Params {
		ps[p.Name] = p.Value
	}
	return format.Params(ps)
}

// forkOrdinal is "fork 2 of 3", or "warmup fork 1 of 1".
func forkOrdinal(fork, total int, warmup bool, warmupForks int) string {
	if warmup {
		return fmt.Sprintf("warmup fork %d of %d", fork, warmupForks)
	}
	return fmt.Sprintf("fork %d of %d", fork-warmupForks, total-warmupForks)
}

// Iteration writes one iteration's score (sample mode: its sample count
// and mean).
func (l *Log) Iteration(r *plan.Run, fork int, it *protocol.Iteration) {
	prefix := "Iteration"
	if it.Phase == protocol.PhaseWarmup {
		prefix = "# Warmup Iteration"
	}
	score, unit := report.Float(report.IterationScore(r, it)), r.Mode.Unit(r.Settings.TimeUnit)
	if r.Mode.Samples() && it.Histogram != nil {
		l.printf("%s %3d: n = %d, mean = %s %s\n", prefix, it.Index, it.Histogram.Count, format.Score(score), unit)
		return
	}
	l.printf("%s %3d: %s %s\n", prefix, it.Index, format.Score(score), unit)
}

// ForkEnd writes a fork's failure with the tail of its output.
func (l *Log) ForkEnd(r *plan.Run, f *protocol.ForkResult) {
	l.est.End(r, f.Wall)
	if floor := f.Timer.BaselineFloorNs(); floor > 0 && !f.Failed() {
		l.printf("# Empty loop in this fork: %s ns per call, its fastest iteration (%s): the floor DEAD_CODE compares with\n", format.Score(report.Float(floor)), baselineForms(&f.Timer))
	}
	if f.Failed() {
		l.printf("<failure: %s>\n", f.Err)
		if tail := strings.TrimRight(f.StderrTail, "\n"); tail != "" {
			l.printf("\n%s\n", indent(tail, "  "))
		}
	}
	l.printf("\n")
}

// RunEnd writes the run's result as the report computes it, then its
// diagnostics.
func (l *Log) RunEnd(r *plan.Run, forks []protocol.ForkResult) {
	run := report.BuildRun(r, forks, 0)
	if run.Failed() {
		l.printf("Result %q:\n  FAILED: %s\n\n", r.Benchmark, run.Error)
		return
	}
	if run.Skipped() {
		l.printf("Result %q:\n  SKIPPED: %s\n\n", r.Benchmark, run.SkipReason)
		return
	}
	if run.NoTime() {
		l.printf("Result %q:\n  %s\n\n", r.Benchmark, run.Outcome())
	} else {
		l.printf("Result %q:\n%s\n", r.Benchmark, summary(run.Primary, r.Mode.Samples()))
	}
	if line := baselines(forks); line != "" {
		l.printf("%s\n", format.Wrap(line, "    ", l.width))
	}
	if line := precisionLine(run.Precision); line != "" {
		l.printf("%s\n\n", format.Wrap("  "+line, "    ", l.width))
	}
	for _, d := range run.Diagnostics {
		l.printf("%s\n", format.Wrap("  "+d.Severity+" "+d.Code+": "+format.OneLine(d.Message), "    ", l.width))
	}
	if len(run.Diagnostics) > 0 {
		l.printf("\n")
	}
	for _, name := range slices.Sorted(maps.Keys(run.SecondaryMetrics)) {
		if r.Mode.Samples() && report.IsQuantileName(name) {
			continue
		}
		m := run.SecondaryMetrics[name]
		l.printf("Secondary result %q:\n%s\n", r.Benchmark+":"+name, summary(&m, false))
	}
}

// summary is the indented body of a result: JMH's average block, or for
// a sample distribution its count, mean and percentiles.
func summary(m *report.Metric, sample bool) string {
	var b strings.Builder
	u := m.ScoreUnit
	withError := func(score report.Float) string {
		if e := format.Error(m.ScoreError, score); e != "" {
			return fmt.Sprintf("%s ±(%g%%) %s %s", format.Score(score), 100*report.Confidence, e, u)
		}
		return format.Score(score) + " " + u
	}
	if sample {
		fmt.Fprintf(&b, "  N = %d\n  mean = %s\n\n  Percentiles, %s:\n", m.Count, withError(m.Score), u)
		for _, p := range report.Quantiles() {
			fmt.Fprintf(&b, "    p(%8.4f) = %10s %s\n", 100*p.Q, format.Score(m.Percentiles[p.Key]), u)
		}
		return b.String()
	}
	if !m.ScoreError.Valid() {
		fmt.Fprintf(&b, "  %s\n", withError(m.Score))
		return b.String()
	}
	fmt.Fprintf(&b, "  %s [Average]\n", withError(m.Score))
	fmt.Fprintf(&b, "  (min, avg, max) = (%s, %s, %s), stdev = %s\n",
		format.Like(m.Min, m.Score), format.Score(m.Score), format.Like(m.Max, m.Score), format.Like(m.Stdev, m.Score))
	fmt.Fprintf(&b, "  CI (%g%%): [%s, %s] (forks as the unit, assumes normal fork means)\n",
		100*report.Confidence, format.Like(m.ScoreConfidence[0], m.Score), format.Like(m.ScoreConfidence[1], m.Score))
	if line := varianceLine(m); line != "" {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	return b.String()
}

// varianceLine says how many forks the error rests on, how much of the
// spread comes from the process, and what a stated precision would take.
func varianceLine(m *report.Metric) string {
	v := m.Variance
	if v == nil {
		return ""
	}
	line := fmt.Sprintf("%d forks", v.Forks)
	if v.BetweenForkShare.Valid() {
		line += fmt.Sprintf(", %.0f%% of the variance between forks", 100*float64(v.BetweenForkShare))
	}
	rel := float64(m.ScoreError) / math.Abs(float64(m.Score))
	switch {
	case !v.TargetError.Valid():
	case rel <= float64(v.TargetError):
		line += fmt.Sprintf("; within ±%g%%", 100*float64(v.TargetError))
	case v.ForksNeeded != nil:
		line += fmt.Sprintf("; ±%g%% would take %d forks", 100*float64(v.TargetError), *v.ForksNeeded)
	case v.Forks >= 2 && m.Score.Valid():
		line += fmt.Sprintf("; ±%g%% would take more than %d forks", 100*float64(v.TargetError), report.MaxForks)
	}
	return line
}

// precisionLine says why a run with a precision target stopped adding
// forks, what it reached and what it cost; "" for a run without one.
func precisionLine(p *report.Precision) string {
	if p == nil {
		return ""
	}
	why := map[string]string{
		report.StopPrecise:  "precise",
		report.StopMaxForks: "stopped at max_forks",
		report.StopMaxTime:  "stopped at max_time",
	}[p.Reason]
	reached := "no error yet"
	if p.Error.Valid() {
		reached = fmt.Sprintf("±%.3g%%", 100*float64(p.Error))
	}
	iters := make([]string, len(p.ForkIterations))
	for i, n := range p.ForkIterations {
		iters[i] = strconv.Itoa(n)
	}
	line := fmt.Sprintf("Precision: %s: %s for a target of ±%g%% after %d forks (measurement iterations %s) in %.3g s",
		why, reached, 100*float64(p.TargetError), p.Forks, strings.Join(iters, ","), time.Duration(p.WallNs).Seconds())
	if p.OptimalIterations.Valid() {
		line += fmt.Sprintf("; the optimal allocation is %.3g iterations per fork", float64(p.OptimalIterations))
	}
	return line
}

func phaseLine(mode spec.Mode, it spec.Iterations) string {
	if it.Iterations <= 0 {
		return "<none>"
	}
	each := format.Duration(it.Time)
	if !mode.TimedIterations() {
		each = "single-shot"
	}
	return fmt.Sprintf("%d iterations, %s each, %d calls per op", it.Iterations, each, it.BatchSize)
}

func threadsLine(n int) string {
	switch n {
	case spec.ThreadsMax:
		return "max (GOMAXPROCS) threads"
	case 1:
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}

func forksLine(forks, warmup int) string {
	s := fmt.Sprint(forks)
	if forks == 0 {
		s = "0 (in-process, for debugging only)"
	}
	if warmup > 0 {
		s += fmt.Sprintf(", plus %d warmup", warmup)
	}
	return s
}

// indent prefixes every non-empty line of s with prefix.
func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if line != "" {
			lines[i] = prefix + line
		}
	}
	return strings.Join(lines, "\n")
}

// clock writes d as hh:mm:ss, rounded to the second.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// baselineForms says what the fork's baseline measured, per loop form:
// the range of its iterations (the baseline's own spread) and how many.
func baselineForms(t *protocol.TimerCalibration) string {
	var parts []string
	for _, f := range []struct {
		name string
		xs   []float64
	}{{"for b.Loop()", t.BaselineNs}, {"for range b.Invocations()", t.BaselineInvocationsNs}} {
		var ok []float64
		for _, x := range f.xs {
			if x > 0 && !math.IsInf(x, 1) {
				ok = append(ok, x)
			}
		}
		if len(ok) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s–%s in %d", f.name, format.Score(report.Float(slices.Min(ok))), format.Score(report.Float(slices.Max(ok))), len(ok)))
		}
	}
	return strings.Join(parts, ", ")
}

// baselines is the line under a result that shows the empty loop each
// measured fork timed before its benchmark (its floor, the fastest
// baseline iteration, which DEAD_CODE compares with): what one loop
// iteration cost in that process. A spread between forks here is the
// loop's or the machine's, not the body's. Empty with fewer than two
// such forks.
func baselines(forks []protocol.ForkResult) string {
	var floors []float64
	for _, f := range forks {
		if floor := f.Timer.BaselineFloorNs(); !f.Warmup && !f.Failed() && floor > 0 {
			floors = append(floors, floor)
		}
	}
	if len(floors) < 2 {
		return ""
	}
	each := make([]string, len(floors))
	for i, m := range floors {
		each[i] = format.Score(report.Float(m))
	}
	return fmt.Sprintf("  empty loop per fork: %s ns per call (fastest iteration; max/min %.2f)", strings.Join(each, ", "), slices.Max(floors)/slices.Min(floors))
}
