package runlog

import (
	"time"

	"github.com/benchspec/benchspec/plan"
)

// ETA estimates how long a batch has left: the plan's estimate for the
// forks not done yet, scaled by how long the finished forks took against
// their own estimates. Before any fork has finished it is the plan's
// estimate; on a machine that turns out twice as slow as planned it
// doubles. The run log and the progress displays share it, so that they
// agree. An ETA is not safe for concurrent use.
type ETA struct {
	planned time.Duration // the plan's estimate
	forks   int           // the plan's forks

	estEnded, wallEnded time.Duration // of the forks that ended
	ended               int

	current time.Duration // estimate of the running fork, 0 when none runs
}

// NewETA returns the ETA of the plan p, with nothing done yet.
func NewETA(p *plan.Plan) *ETA {
	e := &ETA{planned: p.Estimate}
	for i := range p.Runs {
		e.forks += p.Runs[i].ForkCount()
	}
	return e
}

// forkEstimate is the planned time of one fork of r.
func forkEstimate(r *plan.Run) time.Duration { return r.Estimate / time.Duration(r.ForkCount()) }

// Start records that a fork of r started.
func (e *ETA) Start(r *plan.Run) { e.current = forkEstimate(r) }

// End records that a fork of r ended after wall.
func (e *ETA) End(r *plan.Run, wall time.Duration) {
	e.estEnded += forkEstimate(r)
	e.wallEnded += wall
	e.ended++
	e.current = 0
}

// Left is the time left when done of all forks are done (the counts of
// executor.Observer.ForkStart) and the running fork, if any, has run for
// elapsed. Forks counted done that did not End here (a resumed journal's)
// and forks the plan no longer runs (all below the plan's count, after a
// run failed) are taken at the plan's mean estimate per fork.
func (e *ETA) Left(done, all int, elapsed time.Duration) time.Duration {
	if e.forks == 0 || done >= all {
		return 0
	}
	mean := e.planned / time.Duration(e.forks)
	left := e.planned - e.estEnded - mean*time.Duration(max(done-e.ended, 0)+max(e.forks-all, 0))
	if left <= 0 {
		return 0
	}
	scale := 1.0
	if e.estEnded > 0 {
		scale = float64(e.wallEnded) / float64(e.estEnded)
	}
	// the running fork counts for what it has left, never less than 0
	running := min(elapsed, time.Duration(scale*float64(e.current)))
	return max(time.Duration(scale*float64(left))-running, 0)
}
