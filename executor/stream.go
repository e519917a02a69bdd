package executor

import (
	"fmt"
	"math"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// stream checks a fork's messages, as they arrive, against what its run
// asks for: a hello first, then warmup iterations 1..W and measurement
// iterations 1..M, each once and in that order, with finite, positive
// counts, then one done. Anything else is a precise cause for the fork's
// failure; see the package documentation for what this does and does not
// prove.
type stream struct {
	run   *plan.Run
	hello bool
	next  step // the iteration due next

	// What the numbers are checked against (plausible.go): the fork's
	// empty loop floor (from its hello), the timed work so far, and the
	// fork's life: since started while it runs, wall once it has ended.
	floor   float64
	timed   float64
	started time.Time
	wall    time.Duration
}

// step names one iteration of a run: its phase and 1-based index.
type step struct {
	phase string
	index int
}

func (s step) String() string { return fmt.Sprintf("%s iteration %d", s.phase, s.index) }

func newStream(r *plan.Run) *stream {
	return &stream{run: r, next: firstStep(&r.Settings)}
}

// firstStep is the first iteration of a run; {measurement, M+1} when the
// run has none at all.
func firstStep(s *spec.Settings) step {
	if s.Warmup.Iterations > 0 {
		return step{protocol.PhaseWarmup, 1}
	}
	return step{protocol.PhaseMeasurement, 1}
}

// after is the iteration that follows st in a run with settings s.
func after(s *spec.Settings, st step) step {
	if st.phase == protocol.PhaseWarmup && st.index >= s.Warmup.Iterations {
		return step{protocol.PhaseMeasurement, 1}
	}
	return step{st.phase, st.index + 1}
}

// complete reports whether every iteration has been seen.
func (s *stream) complete() bool {
	return s.next.phase == protocol.PhaseMeasurement && s.next.index > s.run.Settings.Measurement.Iterations
}

// message checks m, the next message on the result pipe.
func (s *stream) message(m *protocol.Message) error {
	if m.Type != protocol.MsgHello && !s.hello {
		return fmt.Errorf("the fork sent a %q message before its hello", m.Type)
	}
	switch m.Type {
	case protocol.MsgHello:
		if s.hello {
			return fmt.Errorf("the fork sent a second hello")
		}
		s.hello = true
		if m.Timer != nil {
			s.floor = m.Timer.BaselineFloorNs()
		}
	case protocol.MsgIteration:
		if m.Iteration == nil {
			return fmt.Errorf("malformed iteration message on the result pipe (no iteration)")
		}
		if err := s.iteration(m.Iteration); err != nil {
			return err
		}
	case protocol.MsgDone:
		if !s.complete() {
			return fmt.Errorf("the fork reported done before %s (the run has %s)", s.next, s.counts())
		}
	}
	return nil
}

// iteration checks the next iteration the fork reported.
func (s *stream) iteration(it *protocol.Iteration) error {
	got := step{it.Phase, it.Index}
	if s.complete() {
		return fmt.Errorf("the fork reported %s after its last iteration (the run has %s)", got, s.counts())
	}
	if got != s.next {
		return fmt.Errorf("the fork reported %s where %s was due (the run has %s)", got, s.next, s.counts())
	}
	if err := checkValues(s.run, it); err != nil {
		return fmt.Errorf("%s: %w", got, err)
	}
	if err := s.plausible(it); err != nil {
		return fmt.Errorf("%s: %w", got, err)
	}
	if err := checkMembers(s.run, it, s.floor); err != nil {
		return fmt.Errorf("%s: %w", got, err)
	}
	s.next = after(&s.run.Settings, s.next)
	return nil
}

// plausible checks the iteration's numbers against the fork's own raw
// data and the run's settings (plausible.go).
func (s *stream) plausible(it *protocol.Iteration) error {
	if err := checkCounts(s.run, it, s.floor); err != nil {
		return err
	}
	s.timed += windowTime(s.run, it)
	switch {
	case !s.started.IsZero():
		return checkWall(s.timed, time.Since(s.started))
	case s.wall > 0:
		return checkWall(s.timed, s.wall)
	}
	return nil
}

// checkCounts checks an iteration's operations and call time against
// its invocations (plausible.go).
func checkCounts(r *plan.Run, it *protocol.Iteration, floor float64) error {
	if !(r.Mode.Samples() && it.Ops == 0) { // an empty sample iteration has nothing to check
		if err := checkOps(r, it); err != nil {
			return err
		}
	}
	return checkCallTime(r, it, floor)
}

// where names the point the fork has reached, for a timeout.
func (s *stream) where() string {
	switch {
	case !s.hello:
		return "its start (no hello on the result pipe)"
	case s.complete():
		return "its end (after its last iteration)"
	}
	return s.next.String()
}

func (s *stream) counts() string {
	return fmt.Sprintf("%d warmup and %d measurement iterations", s.run.Settings.Warmup.Iterations, s.run.Settings.Measurement.Iterations)
}

// checkValues checks one iteration's numbers: finite and positive, except
// that a sample-mode iteration may have caught no sample at all (its
// chunks between samples outlasted the iteration), and then has neither
// operations nor time; and that a go test benchmark's iteration marked
// NoTime has no time.
func checkValues(r *plan.Run, it *protocol.Iteration) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !finite(it.Ops) || !finite(it.TimeNs) {
		return fmt.Errorf("non-finite result (ops %v, time %v ns)", it.Ops, it.TimeNs)
	}
	if it.Ops < 0 || it.TimeNs < 0 {
		return fmt.Errorf("negative result (ops %v, time %v ns)", it.Ops, it.TimeNs)
	}
	if h := it.Histogram; h != nil && (!finite(h.Sum) || !finite(h.Min) || !finite(h.Max) || h.Sum < 0) {
		return fmt.Errorf("a histogram with non-finite or negative values (sum %v, min %v, max %v)", h.Sum, h.Min, h.Max)
	}
	for unit, v := range it.Metrics {
		if !finite(v) {
			return fmt.Errorf("metric %q is %v", unit, v)
		}
	}
	empty := it.Ops == 0 && it.TimeNs == 0 && (it.Histogram == nil || it.Histogram.Count == 0)
	if r.Mode == spec.ModeSampleTime && empty {
		return nil
	}
	if it.Ops == 0 {
		return fmt.Errorf("no operations")
	}
	// A go test benchmark may remove its time per op with
	// b.ReportMetric(0, "ns/op"), as go test allows: such an iteration
	// says so (NoTime) and carries no time at all, only its metrics.
	if it.NoTime && it.TimeNs == 0 && r.GoTest != nil {
		return nil
	}
	if it.TimeNs == 0 {
		return fmt.Errorf("%v operations in no time", it.Ops)
	}
	// Every timed window is a whole number of nanoseconds of at least 1
	// (a mean of such over threads in thrpt mode).
	if it.TimeNs < 1 {
		return fmt.Errorf("a time of %v ns, less than the clock's nanosecond", it.TimeNs)
	}
	return nil
}

// CheckFork checks a finished fork's result against run r of the plan:
// its run index, that its fork number is one of the run's, its warmup
// flag, and, unless it failed or skipped, that its iterations are exactly
// the ones the run asks for, with finite positive counts. The journal's
// lines are checked with it before a batch resumes.
func CheckFork(r *plan.Run, f *protocol.ForkResult) error {
	if f.Run != r.Index {
		return fmt.Errorf("fork of run %d recorded for run %d (%s)", f.Run, r.Index, r.Key)
	}
	if n := maxForkCount(r); f.Fork < 1 || f.Fork > n {
		return fmt.Errorf("fork %d of %s, which has %d fork(s)", f.Fork, r.Key, n)
	}
	if err := boundRecord(f); err != nil {
		return fmt.Errorf("fork %d of %s: %w", f.Fork, r.Key, err)
	}
	if warm := f.Fork <= r.Settings.WarmupForks; f.Warmup != warm {
		return fmt.Errorf("fork %d of %s recorded with warmup %v; it is %s fork", f.Fork, r.Key, f.Warmup, map[bool]string{true: "a warmup", false: "a measured"}[warm])
	}
	if f.Failed() || f.Skipped != "" {
		if len(f.Iterations) > 0 {
			return fmt.Errorf("fork %d of %s failed or skipped but has %d iteration(s)", f.Fork, r.Key, len(f.Iterations))
		}
		return nil
	}
	// A fork that a precision added may run more measurement iterations
	// than its run, up to the precision's bound.
	rr := r
	if pr := r.Settings.Precision; pr.Set() && f.Fork > r.ForkCount() {
		m := 0
		for i := range f.Iterations {
			if f.Iterations[i].Phase == protocol.PhaseMeasurement {
				m++
			}
		}
		if planned := r.Settings.Measurement.Iterations; m > planned && m <= pr.IterationBound(planned) {
			grown := *r
			grown.Settings.Measurement.Iterations = m
			rr = &grown
		}
	}
	s := newStream(rr)
	s.floor = f.Timer.BaselineFloorNs()
	if f.PID != 0 { // a fork of its own, whose life the parent timed
		s.wall = f.Wall
	}
	for i := range f.Iterations {
		if err := s.iteration(&f.Iterations[i]); err != nil {
			return fmt.Errorf("fork %d of %s: %w", f.Fork, r.Key, err)
		}
	}
	if !s.complete() {
		return fmt.Errorf("fork %d of %s ends before %s (the run has %s)", f.Fork, r.Key, s.next, s.counts())
	}
	for unit, v := range f.Metrics {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("fork %d of %s: metric %q is %v", f.Fork, r.Key, unit, v)
		}
	}
	return nil
}
