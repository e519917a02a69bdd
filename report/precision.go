package report

import (
	"math"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/stats"
)

// Why a run with a precision target (spec.Precision) stopped adding forks.
const (
	StopPrecise  = "precise"   // its error reached the target
	StopMaxForks = "max_forks" // it ran the most forks allowed
	StopMaxTime  = "max_time"  // another fork would have passed its time bound
)

// MaxForks is the most forks Variance.ForksNeeded answers with.
const MaxForks = stats.MaxForks

// Precision is how a run with a precision target ended: why it stopped
// and what it cost.
type Precision struct {
	Reason string `json:"reason"` // StopPrecise, StopMaxForks or StopMaxTime
	// TargetError and Error are the relative 99.9 % half-widths asked
	// for and reached (Error null when fewer than 2 forks measured).
	TargetError Float `json:"target_error"`
	Error       Float `json:"error"`
	// Forks is the number of measured forks the run took; WallNs the wall
	// time of all its forks, warmup forks included.
	Forks  int   `json:"forks"`
	WallNs int64 `json:"wall_ns"`
	// ForkIterations are the measurement iterations of each measured
	// fork, in fork order: the run's own, and more in added forks where
	// longer forks paid more than more forks.
	ForkIterations []int `json:"fork_iterations"`
	// ForkCostNs and IterationCostNs are the costs Kalibera and Jones's
	// allocation weighs, as the forks measured them: a fork's wall time
	// outside its measurement iterations (start-up, calibration, warmup),
	// and one measurement iteration. OptimalIterations is their
	// cost-optimal measurement iterations per fork from the final
	// variance components; null when a cost or component is unknown, or
	// with no between-fork variance (iterations then always pay more).
	ForkCostNs        Float `json:"fork_cost_ns"`
	IterationCostNs   Float `json:"iteration_cost_ns"`
	OptimalIterations Float `json:"optimal_iterations"`
}

// Precise reports whether a run's forks so far measure its score within
// its precision target: the relative 99.9 % half-width over the measured
// forks' means is at most the target. It is what the executor asks
// before adding a fork (executor.Options.Grow is its negation), and what
// Build records. A run without a target is always precise.
func Precise(r *plan.Run, forks []protocol.ForkResult) bool {
	if !r.Settings.Precision.Set() {
		return true
	}
	rel := relativeError(r, forks)
	return rel <= r.Settings.Precision.Error
}

// Growth is what a run with a precision target asks of its next fork:
// whether to start one, how many measurement iterations it runs, and
// how long it is expected to take (0 when unknown).
type Growth struct {
	More       bool
	Iterations int
	Estimate   time.Duration
}

// NextFork is what the executor asks after a precision run's planned
// forks and after each fork added since (executor.Options.Grow): one
// more fork while the error misses the target, with as many measurement
// iterations as Kalibera and Jones's optimal allocation asks for. A fork
// mean of n iterations varies by σ²b + σ²w/n; at a fork cost c_f and an
// iteration cost c_i, the precision bought per unit of time is greatest
// at n* = √(c_f·σ²w / (c_i·σ²b)) (stats.Model.OptimalIterations).
// Where n* is above the iterations the last fork ran, longer forks pay
// more than more forks: the next one runs up to n*, at most twice as many
// as the last (the components of a few forks are rough estimates, so the
// step is bounded) and at most the precision's IterationBound. Where n*
// is below, it goes back towards the run's own iterations, never under
// them. With no between-fork variance measured, n* is unbounded and the
// doubling applies. Estimate is c_f + n·c_i.
func NextFork(r *plan.Run, forks []protocol.ForkResult) Growth {
	if !r.Settings.Precision.Set() || Precise(r, forks) {
		return Growth{}
	}
	planned := r.Settings.Measurement.Iterations
	g := Growth{More: true, Iterations: planned}
	a := allocationOf(r, forks)
	if a.last > 0 {
		g.Iterations = a.last
	}
	if a.model.Forks >= 2 && a.forkNs > 0 && a.iterNs > 0 && !math.IsNaN(a.model.Within) && !math.IsNaN(a.model.Between) {
		target := math.Inf(1) // no between-fork variance: iterations always pay more
		if n, ok := a.model.OptimalIterations(a.forkNs, a.iterNs); ok {
			target = math.Ceil(n)
		}
		bound := r.Settings.Precision.IterationBound(planned)
		next := math.Min(math.Min(target, float64(2*max(a.last, planned))), float64(bound))
		g.Iterations = max(planned, int(next))
	}
	if a.forkNs > 0 && a.iterNs > 0 {
		g.Estimate = time.Duration(a.forkNs + float64(g.Iterations)*a.iterNs)
	}
	return g
}

// allocation is what a run's measured forks say of the costs and the
// variance components that size its next fork.
type allocation struct {
	model          stats.Model
	forkNs, iterNs float64 // NaN or 0 when unknown
	last           int     // measurement iterations of the last measured fork
	iterations     []int   // per measured fork
}

// iterationNs is the wall time of one measurement iteration: its time
// setting for the modes that time iterations (an iteration runs until
// its time is up; a longer timed window counts, divided among threads
// where they add up), the timed batch for single shot.
func iterationNs(r *plan.Run, it *protocol.Iteration) float64 {
	threads := float64(max(r.Settings.Threads, 1))
	timed := it.TimeNs
	if !r.Mode.IsRate() && !r.Mode.Samples() {
		timed /= threads // avgt and ss add up over threads
	}
	if r.Mode == protocol.ModeAverageTime && (len(r.Group) > 0 || r.Member != "") {
		timed = 0 // a group's avgt time gives JMH's score (the threads' mean ns/op × ops), not a window
	}
	if r.Mode.TimedIterations() {
		return math.Max(float64(r.Settings.Measurement.Time), timed)
	}
	return timed
}

func allocationOf(r *plan.Run, forks []protocol.ForkResult) allocation {
	a := allocation{forkNs: math.NaN(), iterNs: math.NaN()}
	unit := UnitNs(r.Settings.TimeUnit)
	var raw [][]float64
	var outside, inside, iters float64
	n := 0
	for i := range forks {
		f := &forks[i]
		if f.Warmup || f.Failed() {
			continue
		}
		var scores []float64
		meas := 0.0
		for j := range f.Iterations {
			if it := &f.Iterations[j]; it.Phase == protocol.PhaseMeasurement {
				scores = append(scores, score(r.Mode, unit, it))
				meas += iterationNs(r, it)
			}
		}
		raw = append(raw, scores)
		a.iterations = append(a.iterations, len(scores))
		a.last = len(scores)
		if f.Wall > 0 {
			outside += math.Max(float64(f.Wall)-meas, 0)
			inside += meas
			iters += float64(len(scores))
			n++
		}
	}
	for _, g := range raw {
		for _, v := range g {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				a.model = stats.Of(nil)
				return a
			}
		}
	}
	a.model = stats.Of(raw)
	if n > 0 && iters > 0 {
		a.forkNs, a.iterNs = outside/float64(n), inside/iters
	}
	return a
}

// relativeError is the 99.9 % half-width over the fork means of the
// measured forks' iteration scores, relative to their mean; NaN when it
// cannot be computed (fewer than 2 forks, a value that is not finite).
func relativeError(r *plan.Run, forks []protocol.ForkResult) float64 {
	unit := UnitNs(r.Settings.TimeUnit)
	var raw [][]float64
	for i := range forks {
		f := &forks[i]
		if f.Warmup || f.Failed() {
			continue
		}
		var scores []float64
		for j := range f.Iterations {
			if it := &f.Iterations[j]; it.Phase == protocol.PhaseMeasurement {
				v := score(r.Mode, unit, it)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return math.NaN()
				}
				scores = append(scores, v)
			}
		}
		raw = append(raw, scores)
	}
	m := stats.Of(raw)
	return m.HalfWidth(Confidence) / math.Abs(m.Mean)
}

// precisionOf records how a run with a precision target ended; nil for
// a run without one. The reason follows the executor's rules: precise,
// else at its fork bound, else stopped by its time bound.
func precisionOf(r *plan.Run, forks []protocol.ForkResult) *Precision {
	pr := r.Settings.Precision
	if !pr.Set() {
		return nil
	}
	out := &Precision{TargetError: Float(pr.Error), Error: Float(relativeError(r, forks))}
	a := allocationOf(r, forks)
	out.ForkIterations = a.iterations
	if out.ForkIterations == nil {
		out.ForkIterations = []int{}
	}
	out.ForkCostNs, out.IterationCostNs, out.OptimalIterations = Float(a.forkNs), Float(a.iterNs), NaN()
	if n, ok := a.model.OptimalIterations(a.forkNs, a.iterNs); ok {
		out.OptimalIterations = Float(n)
	}
	for _, f := range forks {
		if !f.Warmup {
			out.Forks++
		}
		out.WallNs += int64(f.Wall)
	}
	switch {
	case Precise(r, forks):
		out.Reason = StopPrecise
	case out.Forks >= pr.ForkBound(r.Settings.Forks):
		out.Reason = StopMaxForks
	default:
		out.Reason = StopMaxTime
	}
	return out
}
