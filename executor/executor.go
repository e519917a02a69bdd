// Package executor runs a plan: one fresh process per fork, results over
// a dedicated pipe (fd 3), a per-iteration timeout, and nothing left
// behind. It measures nothing (package worker does, in the fork) and
// prints nothing (an Observer does).
//
// A misbehaving benchmark costs only its own run: whatever a fork does
// ends as ForkResult.Err with a precise cause and its output's tail, and
// the batch goes on. Its stream is checked as it arrives (stream.go),
// bounded (bounds.go) and held to what its raw data allow (plausible.go):
// this guards against accidents, not a benchmark forging numbers on
// purpose. Containment and its limits: docs/security.md ("Forks are
// contained", "How the executor enforces it"). While a fork measures, the
// parent only reads its pipe with raw read(2) (quietReader) and awaits its
// exit through the poller (child.StartLocked), to stay out of its way.
package executor

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/benchspec/benchspec/internal/forkimage"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// Options configure Execute.
type Options struct {
	// Executable is the suite binary whose forks run the registered
	// benchmarks (default: this binary). The forks execute a private copy of it, made once per
	// batch (internal/forkimage).
	Executable string
	// Self is the benchspec program: the guard of the batch, and the fork
	// of a package benchmark, which runs the package's test binary;
	// default os.Executable().
	Self string
	// Observer is told about progress; may be nil.
	Observer Observer
	// FailFast stops the batch after the first failed fork (JMH -foe).
	FailFast bool
	// TailBytes is how much of a failing fork's output to keep; default
	// 16 KiB, room for the goroutine dump of a fork that timed out.
	TailBytes int
	// ProfileDir is where forks write the pprof profiles their run's
	// profilers ask for (cpu, heap, mutex, block).
	ProfileDir string

	// Done are forks that already ran (a resumed journal); Execute does
	// not run them again.
	Done []protocol.ForkResult
	// Record, when set, is called with each fork as soon as it has ended,
	// failed or not (the journal appends it).
	Record func(r *plan.Run, f *protocol.ForkResult) error
	// Guard starts a guard process for the batch (see EnvGuard) so that
	// what forks start dies with them even when the parent is killed with
	// SIGKILL. Self must then dispatch on EnvGuard, as cmd/benchspec
	// does.
	Guard bool
	// Warn is told about problems that do not stop the batch; may be nil.
	Warn func(msg string)
	// Order is the order of the forks; the zero Order is OrderDeclared.
	Order Order
	// Grow is asked, after the planned forks of a run whose settings set
	// a precision (spec.Precision) and after every fork added since,
	// whether the run needs one more fork, and how long: it gets the
	// run's forks so far in fork order, warmup forks included. Execute
	// stops adding forks on its own at the precision's MaxForks, and
	// before a fork that would take the run's forks past its MaxTime.
	// Nil adds no forks.
	Grow func(r *plan.Run, forks []protocol.ForkResult) Growth
}

// Growth is Options.Grow's answer: whether a run with a precision takes
// one more fork, its measurement iterations (0: the run's; within the
// precision's IterationBound), and its expected wall time (0: unknown,
// the average of the run's forks so far stands in).
type Growth struct {
	More       bool
	Iterations int
	Estimate   time.Duration
}

// Execute runs every fork of p, one after the other in the order
// opts.Order schedules them (by default run after run, JMH's order), and
// returns every fork's result in plan order. A failing fork fails only
// its run (its remaining forks are skipped); the batch goes on unless
// FailFast.
//
// Forks in opts.Done (a resumed journal) are not run again: they are
// returned in their place as if they had just run. Every fork that does
// run is handed to opts.Record as soon as it ends; an error from Record
// stops the batch and is returned, with the results so far.
//
// When ctx is cancelled the running fork is killed and Execute returns
// what had finished before: a fork cut short by the cancellation is
// neither returned nor recorded, so that a resumed batch runs it again.
func Execute(ctx context.Context, p *plan.Plan, opts Options) ([]protocol.ForkResult, error) {
	if exe, err := os.Executable(); err == nil {
		opts.Self = cmp.Or(opts.Self, exe)
		opts.Executable = cmp.Or(opts.Executable, exe)
	}
	// Forks run in a directory of their own: what they are told of the
	// batch's files must not depend on the parent's.
	for _, path := range []*string{&opts.Executable, &opts.Self, &opts.ProfileDir} {
		if *path != "" {
			if abs, err := filepath.Abs(*path); err == nil {
				*path = abs
			}
		}
	}
	if opts.TailBytes <= 0 {
		opts.TailBytes = 16 << 10
	}
	x := &execution{ctx: ctx, opts: opts, obs: opts.Observer, done: map[forkID]protocol.ForkResult{}}
	if x.obs == nil {
		x.obs = nopObserver{}
	}
	for i := range p.Runs {
		x.all += forkCount(&p.Runs[i])
	}
	// Every run is a process, a fork or the forks: 0 host, contained
	// alike: subreaper, guard, the private copy of the suite binary.
	forks := len(p.Runs) > 0
	for _, f := range opts.Done {
		if f.Run >= 0 && f.Run < len(p.Runs) && f.Fork >= 1 && f.Fork <= maxForkCount(&p.Runs[f.Run]) {
			x.done[forkID{f.Run, f.Fork}] = f
		}
	}
	x.mark = newBatchMark()
	x.scratch.prefix = scratchPrefix(x.mark)
	x.partner.prefix = x.scratch.prefix
	if forks && len(x.done) < x.all {
		defer beParent()()
	}
	if opts.Guard && forks && len(x.done) < x.all {
		g, err := startGuard(opts.Self, x.mark)
		if err != nil && opts.Warn != nil {
			opts.Warn(fmt.Sprintf("running without a guard (what forks start may outlive a killed parent): %v", err))
		}
		defer g.stop()
		x.guard = g
	}
	defer x.scratch.close()
	defer x.partner.close()
	defer x.stopHost()
	if forks && len(x.done) < x.all && x.opts.Executable != "" {
		// The forks execute a private copy of the suite binary
		// (internal/forkimage); the guard above runs the original.
		img := forkimage.New(x.opts.Executable)
		defer img.Remove()
		x.guard.image(img.Dir)
		x.opts.Executable = img.Path
	}
	x.runs = make([]runState, len(p.Runs))
	slots := opts.Order.Schedule(p)
	for i := 0; i < len(slots); i++ {
		s := slots[i]
		var stop bool
		var err error
		if t, ok := duetPartner(p, opts.Order, slots, i); ok && !x.solo {
			stop, err = x.duet(&p.Runs[s.Run], &p.Runs[t.Run], s.Fork)
			i++
		} else {
			stop, err = x.fork(&p.Runs[s.Run], s.Fork)
		}
		if stop || err != nil {
			return x.sorted(), err
		}
	}
	return x.sorted(), nil
}

type forkID struct{ run, fork int }

// execution is the state of one Execute call.
type execution struct {
	ctx        context.Context
	opts       Options
	obs        Observer
	guard      *guard
	mark       string                         // protocol.EnvBatch of the forks
	scratch    scratchDirs                    // the forks' working directories
	partner    scratchDirs                    // those of a duet's second fork
	deafWarned bool                           // a suite that predates duets was named
	solo       bool                           // duets were starved: pairs run one fork after the other
	starved    int                            // duets starved in a row
	host       host                           // the process of the forks: 0 runs
	done       map[forkID]protocol.ForkResult // from opts.Done
	all        int                            // forks in the plan, less those failed runs skip
	count      int                            // forks finished, including done ones
	results    []protocol.ForkResult
	runs       []runState // by run index
	// iterations are the measurement iterations of forks that a
	// precision added with more than their run's.
	iterations map[forkID]int
}

// runState is how far one run of the plan is.
type runState struct {
	started bool                  // RunStart was called
	forks   []protocol.ForkResult // its forks so far, done ones included
	failed  bool                  // a fork failed: the run is over
}

// fork runs fork f of r unless it is done or its run has failed. stop
// reports that the batch ends here: it was interrupted, or the run failed
// with FailFast set.
func (x *execution) fork(r *plan.Run, f int) (stop bool, err error) {
	a, done, stop := x.prepare(r, f, 0)
	switch {
	case stop:
		return true, nil
	case done != nil:
		return x.settle(r, f, *done, true)
	case a == nil:
		return false, nil
	}
	var fr protocol.ForkResult
	if r.Settings.Forks == 0 {
		fr = x.runHosted(r, a)
	} else {
		fr = runFork(x.ctx, r, a, x.opts, x.obs, x.guard, x.mark, &x.scratch, nil)
	}
	if x.ended(r, &fr) {
		return true, nil
	}
	return x.settle(r, f, fr, false)
}

// prepare is what fork f of r takes: a done fork (the journal's), an
// assignment to run, or neither when its run has failed; stop when the
// batch is interrupted. ahead counts forks starting at the same time
// before this one, for the progress shown.
func (x *execution) prepare(r *plan.Run, f, ahead int) (a *protocol.Assignment, done *protocol.ForkResult, stop bool) {
	st := &x.runs[r.Index]
	if st.failed {
		return nil, nil, false // the run has failed; its other forks would not change that
	}
	if fr, ok := x.done[forkID{r.Index, f}]; ok {
		return nil, &fr, false
	}
	if x.ctx.Err() != nil {
		return nil, nil, true
	}
	if !st.started {
		x.obs.RunStart(r)
		st.started = true
	}
	warm := f <= r.Settings.WarmupForks
	x.obs.ForkStart(r, f, max(forkCount(r), f), warm, x.count+ahead, x.all)
	a = &protocol.Assignment{Run: r.Fork(), Fork: f, Warmup: warm, ProfileDir: cmp.Or(r.ProfileDir, x.opts.ProfileDir)}
	if n := x.iterations[forkID{r.Index, f}]; n > 0 {
		a.Run.Settings.Measurement.Iterations = n
	}
	return a, nil, false
}

// ended tells the observer that a fork ran, and reports a fork cut
// short by the batch's interruption, which is not kept.
func (x *execution) ended(r *plan.Run, fr *protocol.ForkResult) bool {
	x.obs.ForkEnd(r, fr)
	return fr.Failed() && x.ctx.Err() != nil
}

// settle keeps fork f of r: counted, recorded unless it was done before,
// its run failed or grown by a precision, ended when it is the last.
func (x *execution) settle(r *plan.Run, f int, fr protocol.ForkResult, done bool) (stop bool, err error) {
	st := &x.runs[r.Index]
	n := forkCount(r)
	x.count++
	st.forks = append(st.forks, fr)
	x.results = append(x.results, fr)
	if !done && x.opts.Record != nil {
		if err := x.opts.Record(r, &fr); err != nil {
			return true, fmt.Errorf("recording fork %d of %s: %w", f, r.Key, err)
		}
	}
	if fr.Failed() {
		st.failed = true
		x.all -= max(n-f, 0) // the forks the run skips leave the count
	}
	if !st.failed && f >= n {
		if g := x.grows(r, st.forks); g.More {
			if g.Iterations > r.Settings.Measurement.Iterations {
				if x.iterations == nil {
					x.iterations = map[forkID]int{}
				}
				x.iterations[forkID{r.Index, f + 1}] = g.Iterations
			}
			x.all++
			return x.fork(r, f+1)
		}
	}
	if st.started && (st.failed || f >= n) {
		x.obs.RunEnd(r, st.forks)
	}
	return st.failed && x.opts.FailFast, nil
}

// grows asks opts.Grow whether a run with a precision takes one more
// fork, and how long, within its bounds: the precision's MaxForks, its
// IterationBound, and its MaxTime, which the next fork must not pass at
// its expected length.
func (x *execution) grows(r *plan.Run, forks []protocol.ForkResult) Growth {
	pr := r.Settings.Precision
	if x.opts.Grow == nil || !pr.Set() || r.Settings.Forks == 0 || len(forks) == 0 {
		return Growth{}
	}
	measured, wall := 0, time.Duration(0)
	for _, f := range forks {
		if !f.Warmup {
			measured++
		}
		wall += f.Wall
	}
	if measured >= pr.ForkBound(r.Settings.Forks) {
		return Growth{}
	}
	g := x.opts.Grow(r, forks)
	if !g.More {
		return Growth{}
	}
	g.Iterations = min(max(g.Iterations, r.Settings.Measurement.Iterations), pr.IterationBound(r.Settings.Measurement.Iterations))
	next := g.Estimate
	if next <= 0 {
		next = wall / time.Duration(len(forks))
	}
	if wall+next > pr.TimeBound() {
		return Growth{}
	}
	return g
}

// maxForkCount is the most forks a run may take: its planned ones, or
// with a precision as many as its bound allows.
func maxForkCount(r *plan.Run) int {
	if pr := r.Settings.Precision; pr.Set() && r.Settings.Forks > 0 {
		return r.Settings.WarmupForks + pr.ForkBound(r.Settings.Forks)
	}
	return forkCount(r)
}

// sorted returns the results in plan order: by run, then fork.
func (x *execution) sorted() []protocol.ForkResult {
	slices.SortStableFunc(x.results, func(a, b protocol.ForkResult) int {
		return cmp.Or(cmp.Compare(a.Run, b.Run), cmp.Compare(a.Fork, b.Fork))
	})
	return x.results
}

// forkCount is the number of processes a run takes; forks: 0 runs once,
// without warmup forks.
func forkCount(r *plan.Run) int { return r.ForkCount() }

type nopObserver struct{}

func (nopObserver) RunStart(*plan.Run)                            {}
func (nopObserver) ForkStart(*plan.Run, int, int, bool, int, int) {}
func (nopObserver) Iteration(*plan.Run, int, *protocol.Iteration) {}
func (nopObserver) ForkEnd(*plan.Run, *protocol.ForkResult)       {}
func (nopObserver) RunEnd(*plan.Run, []protocol.ForkResult)       {}
