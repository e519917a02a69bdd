package report

import (
	"math"

	"github.com/benchspec/benchspec/internal/forkstat"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// Why a run with a precision target (spec.Precision) stopped adding forks.
const (
	StopPrecise  = "precise"   // its error reached the target
	StopMaxForks = "max_forks" // it ran the most forks allowed
	StopMaxTime  = "max_time"  // another fork would have passed its time bound
)

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
	m := forkstat.Of(raw)
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
