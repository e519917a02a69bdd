// Package worker is the fork side of the executor: the B a benchmark body
// runs against, and the warmup and measurement loops of each mode.
//
// A benchmark body is called once per fork and runs `for b.Loop() { ... }`.
// Loop spans every warmup and measurement iteration of the fork: its fast
// path is a compare and an increment; whenever the current chunk of
// invocations is used up it drops into the slow path, which reads the
// clock, ends or continues the iteration, reports finished iterations and
// sizes the next chunk. All clock reads and bookkeeping live in the slow
// path, outside the user's code.
package worker

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Func is a benchmark body.
type Func func(*B)

// B is the handle a benchmark body measures with. A B is used by one
// goroutine.
type B struct {
	loop struct {
		// Loop stays on the fast path while i < n. i counts every
		// invocation of the fork; n is where the current chunk ends.
		n, i uint64
	}
	r      *runner
	thread int

	params  map[string]string
	metrics map[string]float64
}

// Loop reports whether the body should run once more. The first call
// starts the first warmup iteration (setup before it is not timed); when it
// returns false every iteration has finished and the timer is stopped, so
// cleanup after the loop is not timed either.
func (b *B) Loop() bool {
	if b.loop.i < b.loop.n {
		b.loop.i++
		return true
	}
	return b.loopSlow()
}

// StopTimer stops timing. Work done while the timer is stopped counts
// neither towards the score nor towards the iteration's time (so an
// iteration lasts longer in wall time). Calling it twice is harmless.
func (b *B) StopTimer() {
	if r := b.r; r != nil && r.timerOn {
		r.acc += r.clock.Now() - r.tstart
		r.timerOn = false
	}
}

// StartTimer resumes timing after StopTimer. Calling it while the timer
// runs is harmless.
func (b *B) StartTimer() {
	if r := b.r; r != nil && !r.timerOn {
		r.timerOn = true
		r.tstart = r.clock.Now()
	}
}

// ResetTimer discards the time and the invocations counted so far in the
// current iteration, without changing whether the timer runs. Outside
// b.Loop it does nothing: Loop starts each iteration afresh.
func (b *B) ResetTimer() {
	r := b.r
	if r == nil || !r.inIteration {
		return
	}
	r.acc = 0
	r.tstart = r.clock.Now()
	r.invBase = b.loop.i
}

// ReportMetric records a secondary metric for the fork, such as a custom
// count per op, under unit. The last value reported for a unit wins; the
// report averages it over forks with its own error. Units must not contain
// white space.
func (b *B) ReportMetric(v float64, unit string) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		b.Fatalf("ReportMetric(%v, %q): a metric must be a finite number", v, unit)
	}
	if unit == "" || strings.ContainsFunc(unit, unicode.IsSpace) {
		b.Fatalf("ReportMetric(%v, %q): the unit must be non-empty, without white space", v, unit)
	}
	if b.metrics == nil {
		b.metrics = make(map[string]float64)
	}
	b.metrics[unit] = v
}

// SetupIteration registers f to run before every iteration, warmup and
// measurement, outside the timed window (JMH's @Setup(Level.Iteration)).
// Register it before the first b.Loop(). Code before the loop is the
// fork's setup (Level.Trial) and code after it the teardown; with threads,
// each thread runs its own. A panic or b.Fatalf in f fails the run.
func (b *B) SetupIteration(f func()) { b.r.setup = append(b.r.setup, f) }

// TeardownIteration registers f to run after every iteration, outside the
// timed window (JMH's @TearDown(Level.Iteration)).
func (b *B) TeardownIteration(f func()) { b.r.teardown = append(b.r.teardown, f) }

// Fatalf fails the run with the formatted message and stops the body, as
// testing.B.Fatalf does. Use it for setup errors.
func (b *B) Fatalf(format string, args ...any) {
	panic(fatal{fmt.Sprintf(format, args...)})
}

// Fatal fails the run with err's message.
func (b *B) Fatal(err error) { panic(fatal{err.Error()}) }

// fatal is the panic value of Fatalf: a failure the user reported, not a
// crash, so it carries no stack.
type fatal struct{ msg string }

// Thread is this B's goroutine number, 0 to Threads-1, for benchmarks that
// give each thread its own share of the work.
func (b *B) Thread() int { return b.thread }

// Param returns the value of the named parameter for this run. It panics
// if the benchmark did not declare the parameter, which fails the run.
func (b *B) Param(name string) string {
	v, ok := b.params[name]
	if !ok {
		panic(fmt.Sprintf("benchspec: parameter %q was not declared at registration", name))
	}
	return v
}

// IntParam returns the named parameter as an int. A value that is not an
// integer fails the run with the parameter's name and value.
func (b *B) IntParam(name string) int {
	v := b.Param(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(fmt.Sprintf("benchspec: parameter %s=%q is not an integer", name, v))
	}
	return n
}
