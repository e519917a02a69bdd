package report

import (
	"math"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// UnitNs returns the length of timeUnit in nanoseconds, NaN for an unknown
// unit so that a wrong unit can only give a missing number, not a wrong one.
// (A switch, not a map: a package-level map is built by package
// initialisation, which every fork runs.)
func UnitNs(timeUnit string) float64 {
	switch timeUnit {
	case "ns":
		return 1
	case "us":
		return 1e3
	case "ms":
		return 1e6
	case "s":
		return 1e9
	}
	return math.NaN()
}

// IterationScore returns the score of one iteration in the run's mode and
// time unit (see spec.Mode.Unit): thrpt Ops/TimeNs, the others TimeNs/Ops, sample
// mode the exact mean of the iteration's samples. It is NaN where the
// division is undefined (no ops, no time).
func IterationScore(r *plan.Run, it *protocol.Iteration) float64 {
	return score(r.Mode, UnitNs(r.Settings.TimeUnit), it)
}

func score(mode spec.Mode, unit float64, it *protocol.Iteration) float64 {
	switch {
	case mode.IsRate():
		if it.TimeNs <= 0 {
			return math.NaN()
		}
		return it.Ops / it.TimeNs * unit
	case mode.Samples() && it.Histogram != nil && it.Histogram.Count > 0:
		return it.Histogram.Sum / float64(it.Histogram.Count) / unit
	default:
		if it.Ops <= 0 {
			return math.NaN()
		}
		return it.TimeNs / it.Ops / unit
	}
}
