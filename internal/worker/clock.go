package worker

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// Clock is the time source the measurement loops read. It is a seam: the
// fork uses the monotonic system clock, tests use a fake one to prove the
// arithmetic of every mode exactly.
type Clock interface {
	// Now returns monotonic nanoseconds since an arbitrary origin.
	Now() int64
}

// Rand is the random source sample mode draws its gaps from.
type Rand interface {
	// Float64 returns a number in [0, 1).
	Float64() float64
}

// SystemClock returns the monotonic clock of the process.
func SystemClock() Clock { return monoClock{time.Now()} }

type monoClock struct{ base time.Time }

// Now reads only the monotonic clock: time.Since on a time with a
// monotonic reading costs one clock_gettime(CLOCK_MONOTONIC) via vDSO.
func (c monoClock) Now() int64 { return int64(time.Since(c.base)) }

// SystemRand returns a randomly seeded source.
func SystemRand() Rand { return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())) }

// Calibrate measures the clock's resolution (the smallest non-zero step
// between two consecutive reads) and overhead (the mean cost of one read),
// as JMH does at start-up. Each figure is the median of CalibrationRounds
// rounds so that one preemption does not decide it.
//
// A round is CalibrationReads reads (about 20 µs with a vDSO clock), and
// reads on while it has seen no step of the clock, up to
// maxCalibrationReads, so that a coarse clock still shows its step.
// examples/selfbench prints how far this is, in fresh processes, from a
// calibration of 7 rounds of 20 000 reads.
func Calibrate(c Clock) protocol.TimerCalibration {
	return CalibrateRounds(c, CalibrationRounds, CalibrationReads)
}

// CalibrateRounds is Calibrate with rounds rounds of at least reads reads
// each: longer ones are the reference Calibrate's error is taken against.
func CalibrateRounds(c Clock, rounds, reads int) protocol.TimerCalibration {
	res := make([]float64, 0, rounds)
	ovh := make([]float64, 0, rounds)
	for range rounds {
		minStep := int64(math.MaxInt64)
		start := c.Now()
		prev := start
		n := 0
		for n < reads || minStep == math.MaxInt64 && n < maxCalibrationReads {
			now := c.Now()
			if d := now - prev; d > 0 && d < minStep {
				minStep = d
			}
			prev = now
			n++
		}
		ovh = append(ovh, float64(prev-start)/float64(n))
		if minStep != math.MaxInt64 {
			res = append(res, float64(minStep))
		}
	}
	return protocol.TimerCalibration{ResolutionNs: median(res), OverheadNs: median(ovh)}
}

// Calibrate's rounds and reads per round.
const (
	CalibrationRounds   = 5
	CalibrationReads    = 500
	maxCalibrationReads = 1 << 20
)

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// Baseline measures the empty loop body with the same Loop the benchmark
// uses, in avgt mode: iterations of d each, ns/op per iteration. A score
// that cannot be told from it measures the harness, not the benchmark.
func Baseline(c Clock, iterations int, d time.Duration) []float64 {
	a := &protocol.Assignment{Run: plan.Run{Key: "baseline", Mode: spec.ModeAverageTime, Settings: spec.Settings{
		Warmup:           spec.Iterations{Iterations: 1, Time: d, BatchSize: 1},
		Measurement:      spec.Iterations{Iterations: iterations, Time: d, BatchSize: 1},
		OpsPerInvocation: 1, Threads: 1,
	}}}
	var out []float64
	RunFork(a, func(b *B) {
		for b.Loop() {
		}
	}, c, SystemRand(), func(it *protocol.Iteration) error {
		if it.Phase == protocol.PhaseMeasurement {
			out = append(out, it.TimeNs/it.Ops)
		}
		return nil
	})
	return out
}

// CalibrateFork is what every fork measures before its benchmark: the
// clock (Calibrate) and the empty-loop baseline, a warmup and
// BaselineIterations iterations of BaselineTime each. Together they take
// about 1.5 ms of the fork's start (they took 6.5 ms with iterations of
// 1 ms). The baseline's median is what DEAD_CODE compares a call with,
// against a factor of 2: iterations of 200 µs hold about half a million
// empty invocations, and the loop reads the clock about a hundred times
// per iteration (a 1 % bias at most), while the median of five is immune
// to one preempted iteration. examples/selfbench prints how far the
// median is from one over 5 × 10 ms in the same process.
func CalibrateFork(c Clock) protocol.TimerCalibration {
	cal := Calibrate(c)
	cal.BaselineNs = Baseline(c, BaselineIterations, BaselineTime)
	return cal
}

// The empty-loop baseline of every fork (CalibrateFork).
const (
	BaselineIterations = 5
	BaselineTime       = 200 * time.Microsecond
)
