package executor

import (
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// Observer is told what the executor does, as it happens. The run log and
// progress displays implement it; the executor itself prints nothing.
// Calls come from one goroutine, in order.
//
// In the declared order a run's calls come together: RunStart, its forks,
// RunEnd. In another Order (interleaved, random) the forks of different
// runs alternate, so a run's calls are spread out between RunStart, before
// its first fork, and RunEnd, after its last.
type Observer interface {
	// RunStart is called before the first fork of a run.
	RunStart(r *plan.Run)
	// ForkStart is called before fork number fork (1-based, warmup forks
	// first) of total starts; done is the number of forks of the whole plan
	// finished so far and all their number (less the forks that runs which
	// failed skip).
	ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int)
	// Iteration is called for each iteration a fork reports.
	Iteration(r *plan.Run, fork int, it *protocol.Iteration)
	// ForkEnd is called when a fork has finished, failed or not.
	ForkEnd(r *plan.Run, f *protocol.ForkResult)
	// RunEnd is called after the last fork of a run with all its forks.
	RunEnd(r *plan.Run, forks []protocol.ForkResult)
}
