package executor

import (
	"fmt"
	"math"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// Every number read back, from a fork's pipe or a journal, is checked
// against what the fork's raw data and its run's settings allow; one that
// cannot be true fails the fork with its cause (a merely suspicious one
// is report/diag's business, e.g. DEAD_CODE):
//
//   - ops follow from invocations as the worker counts them (avgt, thrpt:
//     invocations × ops_per_invocation ÷ batch_size; sample: batches ×
//     ops_per_invocation; ss: threads × ops_per_invocation);
//   - no call takes under impossibleFraction of the fork's empty loop
//     (BaselineFloorNs, about a cycle): a go test body ignoring b.N is
//     refused here;
//   - the timed windows (per thread) sum to no more than the fork's wall
//     time, measured by the parent.

// impossibleFraction: below this fraction of the fork's empty loop
// iteration a call's time is impossible. DEAD_CODE warns from 3× the
// floor down; between the two a body is suspicious, not impossible.
// The margin covers a floor measured slow (every baseline iteration
// disturbed) and a go test loop (`for i < b.N`) cheaper than b.Loop's.
const impossibleFraction = 0.01

// wallSlack is what the sum of a fork's timed windows may exceed its
// wall time by: the two clocks are the same (monotonic), read in two
// processes.
const wallSlack = time.Millisecond

// threadsOf is the number of threads whose results iteration it
// combines: the setting, or for threads: max the windows it carries.
func threadsOf(r *plan.Run, it *protocol.Iteration) float64 {
	if t := r.Settings.Threads; t >= 1 {
		return float64(t)
	}
	return float64(max(len(it.Windows), 1))
}

// checkOps checks the iteration's operations against its invocations
// (or samples) and the run's settings.
func checkOps(r *plan.Run, it *protocol.Iteration) error {
	s := &r.Settings
	opi := float64(max(s.OpsPerInvocation, 1))
	batches := []int{s.Measurement.BatchSize}
	if it.Phase == protocol.PhaseWarmup {
		batches = append(batches, s.Warmup.BatchSize)
	}
	var want []float64
	switch {
	case r.Mode.Samples():
		if it.Histogram == nil {
			return fmt.Errorf("a sample-mode iteration without its histogram")
		}
		want = append(want, float64(it.Histogram.Count)*opi)
	case !r.Mode.TimedIterations():
		if r.GoTest != nil {
			want = append(want, opi)
		} else {
			want = append(want, threadsOf(r, it)*opi)
		}
	default:
		for _, b := range batches {
			want = append(want, float64(it.Invocations)*opi/float64(max(b, 1)))
		}
	}
	for _, w := range want {
		if math.Abs(it.Ops-w) <= 1e-9*math.Max(math.Abs(w), 1) {
			return nil
		}
	}
	return fmt.Errorf("%v operations, where %d invocations with ops_per_invocation %d make %v: the operations do not follow from the invocations", it.Ops, it.Invocations, max(s.OpsPerInvocation, 1), want[0])
}

// checkCallTime checks that a call of the body took at least
// impossibleFraction of the fork's empty loop iteration (floor, ns; 0:
// the fork measured none). Only timed iterations (avgt, thrpt), whose
// time covers all their invocations, are checked.
func checkCallTime(r *plan.Run, it *protocol.Iteration, floor float64) error {
	if !(floor > 0) || !r.Mode.TimedIterations() || r.Mode.Samples() || it.Invocations == 0 || it.TimeNs == 0 {
		return nil
	}
	call := it.TimeNs / float64(it.Invocations) // avgt: time and invocations add up over threads
	if r.Mode.IsRate() {
		call *= threadsOf(r, it) // thrpt: the threads' mean window
	}
	if call >= floor*impossibleFraction {
		return nil
	}
	hint := ""
	if r.GoTest != nil {
		hint = "; a go test benchmark must run its body b.N times (or use b.Loop)"
	}
	return fmt.Errorf("%d invocations in %v ns make %.3g ns per call, %.0f times less than this fork's empty loop iteration (%.3g ns): no call is that fast%s",
		it.Invocations, it.TimeNs, call, floor/call, floor, hint)
}

// windowTime is the iteration's timed time per thread: what it adds to
// the fork's life at least.
func windowTime(r *plan.Run, it *protocol.Iteration) float64 {
	if r.Mode.IsRate() {
		return it.TimeNs // the threads' mean window
	}
	return it.TimeNs / threadsOf(r, it)
}

// checkWall checks that timed, the sum of a fork's windows so far (ns),
// fits in the wall time the fork has had.
func checkWall(timed float64, wall time.Duration) error {
	if timed <= float64(wall+wallSlack)*1.01 {
		return nil
	}
	return fmt.Errorf("its iterations claim %s of timed work, but the fork has run for only %s", time.Duration(timed).Round(time.Microsecond), wall.Round(time.Microsecond))
}
