// Package worker is the fork side of the executor: the B behind the root
// package's benchspec.B (which binds to it by value, Bind), the warmup
// and measurement loops of each mode, and serving a fork (ServeBodies:
// the assignment in, protocol messages out on the result pipe).
//
// A benchmark body is called once per fork and runs `for b.Loop() { ... }`.
// Loop spans every warmup and measurement iteration of the fork: its fast
// path is a compare and an increment; whenever the current chunk of
// invocations is used up it drops into the slow path, which reads the
// clock, ends or continues the iteration, reports finished iterations and
// sizes the next chunk. All clock reads and bookkeeping live in the slow
// path, outside the user's code. `for range b.Invocations()` runs the
// same chunks as a countdown in a register (Invocations), for bodies so
// short that Loop's counter in memory is a large part of their cost.
package worker

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Func is a benchmark body written against the worker's B: the
// calibration loop's and the tests'. Users write against benchspec.B,
// which the root package binds to a B (Bind).
type Func func(*B)

// Bind prepares one thread of a fork: it allocates the state the worker
// drives (typically inside the caller's own handle type, by value, so the
// body reaches it with no extra indirection) and returns it with the body
// to run against it. The worker initializes *state in place before it
// calls run, once, on the thread's goroutine.
type Bind func() (state *B, run func())

// bind is the Bind of a body written against B itself.
func (fn Func) bind() Bind {
	return func() (*B, func()) {
		b := new(B)
		return b, func() { fn(b) }
	}
}

// B is the state of one thread of a fork and the engine of the user's
// benchspec.B, which holds a B and documents the contract of each method
// (its forwarding methods inline to these). A B is used by one goroutine.
//
// Loop's fast path touches loop alone, at offset 0 of a B whose size is
// two cache lines (cacheLine below): the allocator gives an object of that
// size class an address that is a multiple of its size, so loop sits at
// the start of its own cache line in every process, with nothing else on
// the line for another thread (or the slow path's bookkeeping) to write.
// A 48-byte B landed at any multiple of 48 bytes instead, the counter's
// offset within its line and its neighbours differing between processes.
type B struct {
	loop struct {
		// Loop stays on the fast path while i < n. i counts every
		// invocation of the fork; n is where the current chunk ends.
		n, i uint64
	}
	_ [cacheLine - 16]byte

	r      *runner
	thread int

	params  map[string]string
	metrics map[string]float64
	_       [cacheLine - 32]byte
}

// cacheLine is the cache line size B's layout assumes: 64 bytes on amd64
// and on the usual arm64 cores. Where lines are larger the counter still
// has the line to itself up to its first 64 bytes.
const cacheLine = 64

// Loop is benchspec.B.Loop, whose doc is the contract.
func (b *B) Loop() bool {
	if b.loop.i < b.loop.n {
		b.loop.i++
		return true
	}
	return b.loopSlow()
}

// Invocations is benchspec.B.Invocations, whose doc is the contract.
//
// It runs each chunk the slow path sizes as a countdown in a local
// variable, which stays in a register once the compiler has inlined this
// function, the returned one and the loop body into the caller: the code
// of `for range b.N`, with no store or load of B per invocation. The
// chunk's invocations are counted in B before the chunk runs (the slow
// path reads the clock only when it is used up), and taken back from
// where the body broke out of the loop.
func (b *B) Invocations() func(yield func() bool) {
	return func(yield func() bool) {
		for b.chunkSlow() {
			k := b.loop.n - b.loop.i
			b.loop.i = b.loop.n
			for ; k > 0; k-- {
				if !yield() {
					b.loop.i -= k - 1
					return
				}
			}
		}
	}
}

// StopTimer is benchspec.B.StopTimer, whose doc is the contract.
func (b *B) StopTimer() {
	if r := b.r; r != nil && r.timerOn {
		r.acc += r.clock.Now() - r.tstart
		r.timerOn = false
	}
}

// StartTimer is benchspec.B.StartTimer, whose doc is the contract.
func (b *B) StartTimer() {
	if r := b.r; r != nil && !r.timerOn {
		r.timerOn = true
		r.tstart = r.clock.Now()
	}
}

// ResetTimer is benchspec.B.ResetTimer, whose doc is the contract.
func (b *B) ResetTimer() {
	r := b.r
	if r == nil || !r.inIteration {
		return
	}
	if r.chunked {
		b.Fatalf("b.ResetTimer inside `for range b.Invocations()`: its invocations are counted a chunk at a time, so a reset in the middle of one cannot be counted; reset before the loop, use b.StopTimer/b.StartTimer around the untimed work, or write the loop as `for b.Loop()`")
	}
	r.acc = 0
	r.tstart = r.clock.Now()
	r.invBase = b.loop.i
}

// ReportMetric is benchspec.B.ReportMetric, whose doc is the contract.
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

// SetupIteration is benchspec.B.SetupIteration, whose doc is the contract.
func (b *B) SetupIteration(f func()) { b.r.setup = append(b.r.setup, f) }

// TeardownIteration is benchspec.B.TeardownIteration, whose doc is the contract.
func (b *B) TeardownIteration(f func()) { b.r.teardown = append(b.r.teardown, f) }

// Fatalf is benchspec.B.Fatalf, whose doc is the contract.
func (b *B) Fatalf(format string, args ...any) {
	panic(fatal{fmt.Sprintf(format, args...)})
}

// Fatal is benchspec.B.Fatal, whose doc is the contract.
func (b *B) Fatal(err error) { panic(fatal{err.Error()}) }

// fatal is the panic value of Fatalf: a failure the user reported, not a
// crash, so it carries no stack.
type fatal struct{ msg string }

// Thread is benchspec.B.Thread, whose doc is the contract.
func (b *B) Thread() int { return b.thread }

// Param is benchspec.B.Param, whose doc is the contract.
func (b *B) Param(name string) string {
	v, ok := b.params[name]
	if !ok {
		panic(fmt.Sprintf("benchspec: parameter %q was not declared at registration", name))
	}
	return v
}

// IntParam is benchspec.B.IntParam, whose doc is the contract.
func (b *B) IntParam(name string) int {
	v := b.Param(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(fmt.Sprintf("benchspec: parameter %s=%q is not an integer", name, v))
	}
	return n
}
