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
// at; with the growing chunks that start it, it reads the clock about 15
// times. A benchmark's iteration aims at a hundred (iterationChunks) and
// at least one every 20 µs (maxChunkTime): 0.15–0.28 % of its time; in the
// baseline's short iterations a hundred reads (a read and the slow path between two chunks
// took 30–55 ns on the 2-core AMD EPYC VM) made the empty loop 3 % slower
// at 100 µs, 10 % at 50 µs and 30 % at 25 µs than it is in long ones, a
// floor too high: DEAD_CODE's false-alarm side.
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
// clock (Calibrate) and the empty-loop baseline in both forms a body can
// take, `for b.Loop()` (BaselineNs) and `for range b.Invocations()`
// (BaselineInvocationsNs): ForkBaseline, BaselineIterations iterations of
// BaselineTime of each form, taken in turn, with no warmup iteration.
// Together they take about 0.25 ms of the fork's start (0.4 ms with the
// 6 iterations of each form they took before, 1.3 ms with 5 × 100 µs and
// a warmup iteration of each form).
//
// DEAD_CODE compares a call with the fastest of all these iterations
// (protocol.TimerCalibration.BaselineFloorNs). The fastest, because
// interference only ever adds time to an empty loop: the median of 5
// iterations moves with a spell that slows three of them (in 40 idle
// seeds runs one fork's baseline caught such a spell, and counter.Inc1
// and counter.Inc2 each got a false DEAD_CODE at 2.9×; on the 2-core AMD
// EPYC VM under load, runs of consecutive iterations took 0.5–0.6 ns
// instead of 0.29), the fastest iteration does not. Taking the forms in
// turn spreads each form's iterations over the whole baseline.
//
// Both forms, because the fork measures before the body runs, and so
// before it shows which form it uses. They cost the same in most
// processes (0.28 ns each on the 2-core AMD EPYC VM); where they do not,
// the cheaper one is the lower floor, so a body compared with it is
// judged dead less often, never more: the conservative choice, since a
// false alarm is the worse error (diag's package doc). It misses a dead
// body written in the dearer form only where that form costs over 3× the
// other in the same process.
//
// As short as the floor's statistics allow: what the floor needs is one
// iteration, of either form, that nothing disturbed, and short iterations
// are likelier to be that than long ones. tools/scripts/baseline-sweep.sh
// measures settings in fresh processes, each floor against the fastest
// of 20 × 1 ms per form in the same process. On the 2-core AMD EPYC VM
// (2026-12-01, 10 sweeps of 30–100 processes a setting, other processes
// using 1–80 % of the CPUs), the 5 × 100 µs after a warmup iteration that
// forks measured before came out over 3 % above the reference in 114 of
// 340 processes (up to +233 %), 6 × 25 µs in 63 of 520 (up to +61 %),
// 4 × 25 µs in 81 of 520, 3 × 25 µs in 64 of 420 and 3 × 50 µs in 42 of
// 360. Most of that is not the setting's doing: within one process the
// empty loop's cost switches between levels (about 0.3, 0.45, 0.6 and
// 0.75 ns there) for milliseconds at a time, and a baseline that falls
// wholly within a slow spell has a high floor whatever its iterations
// (delaying it by 5 or 20 ms changed nothing); 25 µs iterations fit
// between spells that 100 µs ones overlap. With 25 µs iterations the
// median process was within 0.4 % of the reference. Since the loop's
// chunk is bounded (maxChunkTime) those levels are gone from the sweeps,
// and 3 iterations of each form do as well as 6: on the same VM
// (2026-12-01 18:05–18:12, 40–100 processes a setting taking turns,
// quiet and beside 1, 2 and 3 CPU hogs) 6 × 25 µs came out over +3 % in
// 1 of 280 processes, 4 × 25 µs in 2 of 280 and 3 × 25 µs in 1 of 280,
// the median process within 0.4 % of the reference in every setting;
// one form's own floor was now and then far off (up to +283 %), never
// both in one process. 3 × 25 µs saves 0.13–0.17 ms of every fork.
// A warmup iteration changed nothing: a fresh process's first iteration
// of a form is the one that touches the loop's pages first, and the
// fastest iteration leaves it out anyway.
//
// Short iterations err low by a few per cent rather than high where the
// host takes a periodic tax: an iteration under about 1 ms can fall
// between the events that take about 3 % of every longer stretch of the
// loop on that VM (the fastest of 700 µs iterations was 3.4 % below the
// fastest of 1 ms ones), so the floor leaves out a tax the body's own
// iterations pay, and a low floor makes DEAD_CODE fire later, never
// sooner. Against that, each iteration reads the clock about 15 times
// (baselineChunks), which costs about 3 % at 25 µs, half that at 50 µs,
// and is what the floor errs high by where there is no such tax. On the
// VM the two about cancel at 25 µs; 50 µs iterations came out about
// 1.7 % low, 100 µs ones about 2.5 %.
// tools/selfbench's item 4 prints the floor's error the same way.
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
