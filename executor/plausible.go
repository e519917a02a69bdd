package executor

import (
	"fmt"
	"math"
	"strings"
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
// the fork's life at least. A group's time carries its score (JMH's
// aggregate over threads), not its windows: their mean is read instead.
func windowTime(r *plan.Run, it *protocol.Iteration) float64 {
	if r.Group != nil && len(it.Windows) > 0 {
		var sum float64
		for _, w := range it.Windows {
			sum += float64(w[1] - w[0])
		}
		return sum / float64(len(it.Windows))
	}
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

// checkMembers checks the members' parts of an iteration: one per member
// of a group's run, in its order (none for any other run), each an
// iteration of the member's threads as any other (checkValues,
// checkCounts) with no windows, metrics or members of its own; and that
// they add up to the group's: its ops, invocations and samples are their
// sums, and its score is JMH's aggregate of theirs (thrpt: the sum of
// the rates; avgt: the mean over threads of the time per op; sample and
// ss: all time). The group's threads each report a window.
func checkMembers(r *plan.Run, it *protocol.Iteration, floor float64) error {
	if len(it.Members) != len(r.Group) {
		return fmt.Errorf("%d members' parts, where the run has %d members (%s)", len(it.Members), len(r.Group), memberList(r))
	}
	if r.Group == nil {
		return nil
	}
	if n := r.Settings.Threads; n > 1 && len(it.Windows) != n {
		return fmt.Errorf("%d threads' windows, where the group runs %d threads", len(it.Windows), n)
	}
	for _, w := range it.Windows {
		if w[1] < w[0] {
			return fmt.Errorf("a thread's window %v ends before it starts", w)
		}
	}
	var ops, agg float64
	var inv, samples uint64
	threads := 0
	for i := range it.Members {
		m, mr := &it.Members[i], r.MemberRun(i)
		if err := checkMember(&mr, it, m, floor); err != nil {
			return fmt.Errorf("member %q: %w", mr.Member, err)
		}
		ops, inv, threads = ops+m.Ops, inv+m.Invocations, threads+r.Group[i].Threads
		if m.Histogram != nil {
			samples += m.Histogram.Count
		}
		switch {
		case r.Mode.IsRate():
			agg += m.Ops / m.TimeNs
		case r.Mode.TimedIterations() && !r.Mode.Samples():
			agg += float64(r.Group[i].Threads) * m.TimeNs / m.Ops
		default:
			agg += m.TimeNs
		}
	}
	group, what := it.TimeNs, "time (ns)"
	switch {
	case r.Mode.IsRate():
		group, what = it.Ops/it.TimeNs, "ops/ns"
	case r.Mode.TimedIterations() && !r.Mode.Samples():
		group, what, agg = it.TimeNs/it.Ops, "ns/op", agg/float64(threads)
	}
	if it.Histogram != nil && it.Histogram.Count != samples {
		return fmt.Errorf("%d samples, where its members' parts have %d", it.Histogram.Count, samples)
	}
	if inv != it.Invocations || !near(ops, it.Ops) || !near(agg, group) {
		return fmt.Errorf("%d invocations, %v ops and %v %s, where its members' parts make %d, %v and %v", it.Invocations, it.Ops, group, what, inv, ops, agg)
	}
	return nil
}

// checkMember checks m, member run mr's part of group iteration it.
func checkMember(mr *plan.Run, it, m *protocol.Iteration, floor float64) error {
	if m.Phase != it.Phase || m.Index != it.Index {
		return fmt.Errorf("its part is of %s iteration %d", m.Phase, m.Index)
	}
	if m.Windows != nil || m.Metrics != nil || m.Members != nil || m.NoTime {
		return fmt.Errorf("its part has windows, metrics, members or no time, which only a whole iteration may have")
	}
	if err := checkValues(mr, m); err != nil {
		return err
	}
	return checkCounts(mr, m, floor)
}

// near reports whether a and b are equal up to rounding.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(b), 1e-300) }

// memberList names a run's members, or says it is no group.
func memberList(r *plan.Run) string {
	if r.Group == nil {
		return "it is not a group"
	}
	return strings.Join(protocol.MemberNames(r.Group), ", ")
}
