// Package executor runs a plan: one fresh process per fork, results over
// a dedicated pipe, a per-iteration timeout, and nothing left behind. It
// measures nothing itself (that is package worker, inside the fork) and
// prints nothing (an Observer does).
package executor

import (
	"context"
	"os"

	"github.com/benchspec/benchspec/plan"
)

// InProcessFunc runs an assignment in the calling process, for `forks: 0`
// (debugging only: every benchmark then shares the parent's heap, JIT-free
// as Go is, its GC state and caches).
type InProcessFunc func(a *Assignment, emit func(*Iteration) error) (TimerCalibration, map[string]float64, error)

// Options configure Execute.
type Options struct {
	// Executable is the suite binary to re-execute; default os.Executable().
	Executable string
	// Observer is told about progress; may be nil.
	Observer Observer
	// InProcess runs forks: 0 runs; nil makes them fail.
	InProcess InProcessFunc
	// FailFast stops the batch after the first failed fork (JMH -foe).
	FailFast bool
	// TailBytes is how much of a failing fork's output to keep; default 4 KiB.
	TailBytes int
	// ProfileDir is where forks write the pprof profiles their run's
	// profilers ask for (cpu, heap, mutex, block).
	ProfileDir string
}

// Execute runs every run of p in order, fork after fork, and returns every
// fork's result in the order they ran. A failing fork fails only its run;
// the batch goes on (unless FailFast). When ctx is cancelled the running
// fork is killed and Execute returns what has finished.
func Execute(ctx context.Context, p *plan.Plan, opts Options) []ForkResult {
	if opts.Executable == "" {
		exe, err := os.Executable()
		if err == nil {
			opts.Executable = exe
		}
	}
	if opts.TailBytes <= 0 {
		opts.TailBytes = 4 << 10
	}
	obs := opts.Observer
	if obs == nil {
		obs = nopObserver{}
	}
	all := 0
	for i := range p.Runs {
		all += forkCount(&p.Runs[i])
	}
	var results []ForkResult
	done := 0
	for i := range p.Runs {
		r := &p.Runs[i]
		obs.RunStart(r)
		var mine []ForkResult
		n := forkCount(r)
		for f := 1; f <= n; f++ {
			if ctx.Err() != nil {
				return results
			}
			warm := f <= r.Settings.WarmupForks
			obs.ForkStart(r, f, n, warm, done, all)
			a := &Assignment{Run: *r, Fork: f, Warmup: warm, ProfileDir: opts.ProfileDir}
			var fr ForkResult
			if r.Settings.Forks == 0 {
				fr = runInProcess(a, opts.InProcess, obs)
			} else {
				fr = runFork(ctx, a, opts, obs)
			}
			done++
			obs.ForkEnd(r, &fr)
			mine = append(mine, fr)
			results = append(results, fr)
			if fr.Failed() && (opts.FailFast || ctx.Err() != nil) {
				obs.RunEnd(r, mine)
				return results
			}
			if fr.Failed() {
				break // the run has failed; its other forks would not change that
			}
		}
		obs.RunEnd(r, mine)
	}
	return results
}

// forkCount is the number of processes a run takes; forks: 0 runs once,
// in-process.
func forkCount(r *plan.Run) int {
	if r.Settings.Forks == 0 {
		return 1
	}
	return r.Settings.WarmupForks + r.Settings.Forks
}

func runInProcess(a *Assignment, run InProcessFunc, obs Observer) ForkResult {
	fr := ForkResult{Run: a.Run.Index, Fork: a.Fork, Warmup: a.Warmup, ExitStatus: 0}
	if run == nil {
		fr.Err = "forks: 0 (in-process) is not available here"
		return fr
	}
	cal, metrics, err := run(a, func(it *Iteration) error {
		fr.Iterations = append(fr.Iterations, *it)
		obs.Iteration(&a.Run, a.Fork, it)
		return nil
	})
	fr.Timer, fr.Metrics = cal, metrics
	if err != nil {
		fr.Err = err.Error()
		fr.Iterations = nil
	}
	return fr
}

type nopObserver struct{}

func (nopObserver) RunStart(*plan.Run)                            {}
func (nopObserver) ForkStart(*plan.Run, int, int, bool, int, int) {}
func (nopObserver) Iteration(*plan.Run, int, *Iteration)          {}
func (nopObserver) ForkEnd(*plan.Run, *ForkResult)                {}
func (nopObserver) RunEnd(*plan.Run, []ForkResult)                {}
