package spec

import (
	"strconv"
	"strings"
	"time"
)

// Precision asks a run to keep adding forks, beyond its Forks, until the
// 99.9 % error of its score (which counts forks) is within Error of the
// score, or a bound is hit: MaxForks measured forks, or MaxTime of wall
// time for all the run's forks. Forks is then the number it starts with.
// Where the variance components say longer forks pay more than more
// forks (Kalibera and Jones's optimal allocation), the added forks also
// run more measurement iterations, up to MaxIterations each.
// The zero Precision sets no target: the run takes its Forks.
type Precision struct {
	// Error is the target as a fraction of the score: 0.01 for ±1 %.
	Error float64 `json:"error"`
	// MaxForks bounds the measured forks; a MaxForks below the run's
	// Forks is the run's Forks.
	MaxForks int `json:"max_forks"`
	// MaxTime bounds the wall time of all the run's forks: no fork is
	// started that would, at its expected length (its fork and iteration costs as measured so far), pass it.
	MaxTime time.Duration `json:"max_time"`
	// MaxIterations bounds the measurement iterations of an added fork;
	// 0 is DefaultPrecisionIterationFactor times the run's.
	MaxIterations int `json:"max_iterations,omitempty"`
}

// MarshalJSON writes p with its time as a Go duration string.
func (p Precision) MarshalJSON() ([]byte, error) { return marshalFields(&p, nil) }

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Precision) UnmarshalJSON(data []byte) error { return unmarshalFields(data, p) }

// Precision bounds for the keys a spec's `precision:` leaves out (a
// MaxForks or MaxTime of 0).
const (
	DefaultPrecisionMaxForks = 100
	DefaultPrecisionMaxTime  = 10 * time.Minute
)

// DefaultPrecisionIterationFactor bounds an added fork's measurement
// iterations when max_iterations is left out: ten times the run's, so
// that no fork runs more than about ten times as long as planned.
const DefaultPrecisionIterationFactor = 10

// IterationBound is the most measurement iterations an added fork of a
// run with iterations of its own may take: MaxIterations, or
// DefaultPrecisionIterationFactor × iterations when 0; at least
// iterations.
func (p Precision) IterationBound(iterations int) int {
	if p.MaxIterations == 0 {
		return max(DefaultPrecisionIterationFactor*iterations, iterations)
	}
	return max(p.MaxIterations, iterations)
}

// Set reports whether p sets a precision target.
func (p Precision) Set() bool { return p.Error > 0 }

// ForkBound is the most measured forks a run that starts with forks may
// take: MaxForks, DefaultPrecisionMaxForks when 0, at least forks.
func (p Precision) ForkBound(forks int) int {
	if p.MaxForks == 0 {
		return max(DefaultPrecisionMaxForks, forks)
	}
	return max(p.MaxForks, forks)
}

// TimeBound is MaxTime, DefaultPrecisionMaxTime when 0.
func (p Precision) TimeBound() time.Duration {
	if p.MaxTime == 0 {
		return DefaultPrecisionMaxTime
	}
	return p.MaxTime
}

// percent converts a validated percentage such as "1%" or "0.5 %" to a
// fraction.
func percent(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	return v / 100
}
