package worker

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
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
// tools/selfbench prints how far this is, in fresh processes, from a
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

// emptyLoop and emptyInvocations are the two forms of the empty body.
func emptyLoop(b *B) {
	for b.Loop() {
	}
}

func emptyInvocations(b *B) {
	for range b.Invocations() {
	}
}

// baselineChunks is the chunks, so clock reads, a baseline iteration aims
// at (about 15 with the growing chunks that start it). A benchmark's
// iteration aims at a hundred (iterationChunks); in the baseline's short
// iterations a hundred reads would make the empty loop several per cent
// slower than it is in long ones, a floor too high: DEAD_CODE's
// false-alarm side. docs/performance.md has the figures.
const baselineChunks = 10

// baselineRun runs body on the calling goroutine (no goroutine to start,
// unlike RunFork: the baseline is the harness's own empty body, which
// cannot panic or exit its goroutine) through warmup and measurement
// iterations of d each, and returns the measured ns/op.
func baselineRun(c Clock, body func(*B), warmup, iterations int, d time.Duration) []float64 {
	s := protocol.Settings{
		Warmup:           protocol.Phase{Iterations: warmup, Time: d, BatchSize: 1},
		Measurement:      protocol.Phase{Iterations: iterations, Time: d, BatchSize: 1},
		OpsPerInvocation: 1, Threads: 1,
	}
	out := make([]float64, 0, iterations)
	g := newGroup(1, protocol.ModeAverageTime, nil, func(it *protocol.Iteration) error {
		if it.Phase == protocol.PhaseMeasurement {
			out = append(out, it.TimeNs/it.Ops)
		}
		return nil
	})
	b := new(B)
	b.r = newRunner(&s, protocol.ModeAverageTime, c, nil, g)
	b.r.chunks = baselineChunks
	body(b)
	return out
}

// CalibrateFork is what every fork measures before its benchmark: the
// clock (Calibrate) and the empty-loop baseline in both loop forms,
// `for b.Loop()` and `for range b.Invocations()`: ForkBaseline's short
// iterations of each form, taken in turn, no warmup.
//
// DEAD_CODE compares a call with the fastest of them (BaselineFloorNs):
// interference only adds time to an empty loop, so the fastest iteration
// resists a slow spell that moves a median. Both forms, because the fork
// measures before the body shows its form; the cheaper one is the lower
// floor, so a body is judged dead less often, never more (a false alarm
// is the worse error). Short iterations are likelier to miss a slow
// spell, and a warmup changes nothing the fastest does not already drop.
// The measurements behind the setting are in docs/performance.md
// ("The fork's baseline"); tools/selfbench's item 4 prints the error.
func CalibrateFork(c Clock) protocol.TimerCalibration {
	return CalibrateForkWith(c, ForkBaseline)
}

// BaselineSetting is how the empty-loop baseline is measured: Warmup
// warmup iterations of each loop form, then Iterations measured
// iterations of each form, every iteration Time long.
type BaselineSetting struct {
	Warmup, Iterations int
	Time               time.Duration
}

// ForkBaseline is the baseline every fork measures (CalibrateFork).
var ForkBaseline = BaselineSetting{Warmup: 0, Iterations: BaselineIterations, Time: BaselineTime}

// String is the setting as NxD+Ww, e.g. "5x100µs+1w".
func (s BaselineSetting) String() string {
	return fmt.Sprintf("%dx%s+%dw", s.Iterations, s.Time, s.Warmup)
}

// CalibrateForkWith is CalibrateFork with the baseline measured as s
// says: the forms take turns iteration by iteration, each form's warmup
// iterations before its first measured one.
func CalibrateForkWith(c Clock, s BaselineSetting) protocol.TimerCalibration {
	cal := Calibrate(c)
	cal.BaselineNs = make([]float64, 0, s.Iterations)
	cal.BaselineInvocationsNs = make([]float64, 0, s.Iterations)
	for i := range s.Iterations {
		warmup := 0
		if i == 0 {
			warmup = s.Warmup
		}
		cal.BaselineNs = append(cal.BaselineNs, baselineRun(c, emptyLoop, warmup, 1, s.Time)...)
		cal.BaselineInvocationsNs = append(cal.BaselineInvocationsNs, baselineRun(c, emptyInvocations, warmup, 1, s.Time)...)
	}
	return cal
}

// The empty-loop baseline of every fork (CalibrateFork), per form.
const (
	BaselineIterations = 3
	BaselineTime       = 25 * time.Microsecond
)
