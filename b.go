package benchspec

import "github.com/benchspec/benchspec/internal/worker"

// B is the handle a benchmark body measures with: `for b.Loop() { ... }`
// runs every warmup and measurement iteration of the fork, and the other
// methods stop the timer, report metrics and read parameters. The body is
// called once per fork and thread; a B is used by that thread's goroutine
// only.
type B struct {
	// w is the state the fork's worker drives, held by value so that B
	// and w share an address: Loop's fast path reads w's counters at the
	// same offsets as if B were the worker's own type, with no pointer to
	// follow. The registry binds each body to a fresh B's w (bind), which
	// is how a type defined here is driven by internal/worker without the
	// worker importing this package.
	w worker.B
}

// bind adapts a user body to the worker: the worker initializes the
// returned state, which lives inside a B, and runs the body with that B.
func bind(fn func(*B)) worker.Bind {
	return func() (*worker.B, func()) {
		b := new(B)
		return &b.w, func() { fn(b) }
	}
}

// Loop reports whether the body should run once more. The first call
// starts the first warmup iteration (setup before it is not timed); when it
// returns false every iteration has finished and the timer is stopped, so
// cleanup after the loop is not timed either.
//
// Its fast path is a compare and an increment, inlined into the caller's
// loop as testing.B.Loop's is; the clock is read only when a chunk of
// invocations is used up: about a hundred times per iteration, and at least
// every 20 µs (a tight loop left running for milliseconds slows down on
// some processors; see internal/worker maxChunkTime).
func (b *B) Loop() bool { return b.w.Loop() }

// Invocations is Loop with the counter in a register: `for range
// b.Invocations() { ... }` runs the body exactly as `for b.Loop() { ... }`
// does, every warmup and measurement iteration, with the same setup,
// timer and teardown rules, but compiles to the code of testing.B's
// `for range b.N` loop — a register counted down — where `for b.Loop()`
// loads, increments and stores a counter in B on every call. That store
// and load form a chain from one invocation to the next whose cost the
// processor decides (store-to-load forwarding, or memory renaming where
// it predicts the pair): about one cycle in most processes, more in some.
// For a body of a few nanoseconds or less, where a cycle is a large part
// of the score, prefer Invocations; for longer bodies the two measure the
// same.
//
// A body larger than the compiler inlines into the loop (a few hundred
// statements' worth) is called as a closure on each invocation instead;
// b.ResetTimer inside the loop fails the run (reset before it, or use
// StopTimer/StartTimer).
func (b *B) Invocations() func(yield func() bool) { return b.w.Invocations() }

// StopTimer stops timing. Work done while the timer is stopped counts
// neither towards the score nor towards the iteration's time (so an
// iteration lasts longer in wall time). Calling it twice is harmless.
func (b *B) StopTimer() { b.w.StopTimer() }

// StartTimer resumes timing after StopTimer. Calling it while the timer
// runs is harmless.
func (b *B) StartTimer() { b.w.StartTimer() }

// ResetTimer discards the time and the invocations counted so far in the
// current iteration, without changing whether the timer runs. Outside
// b.Loop it does nothing: Loop starts each iteration afresh.
func (b *B) ResetTimer() { b.w.ResetTimer() }

// ReportMetric records a secondary metric for the fork, such as a custom
// count per op, under unit. The last value reported for a unit wins; the
// report averages it over forks with its own error. Units must not contain
// white space; a unit that does, or a value that is NaN or infinite, fails
// the run. With threads, thread 0's values are the fork's; in a group,
// each member's first thread's (on the group's row).
func (b *B) ReportMetric(v float64, unit string) { b.w.ReportMetric(v, unit) }

// SetupIteration registers f to run before every iteration, warmup and
// measurement, outside the timed window (JMH's @Setup(Level.Iteration)).
// Register it before the first b.Loop(). Code before the loop is the
// fork's setup (Level.Trial) and code after it the teardown; with threads,
// each thread runs its own. A panic or b.Fatalf in f fails the run.
func (b *B) SetupIteration(f func()) { b.w.SetupIteration(f) }

// TeardownIteration registers f to run after every iteration, outside the
// timed window (JMH's @TearDown(Level.Iteration)).
func (b *B) TeardownIteration(f func()) { b.w.TeardownIteration(f) }

// Fatalf fails the run with the formatted message and stops the body, as
// testing.B.Fatalf does. Use it for setup errors.
func (b *B) Fatalf(format string, args ...any) { b.w.Fatalf(format, args...) }

// Fatal fails the run with err's message.
func (b *B) Fatal(err error) { b.w.Fatal(err) }

// Thread is this B's goroutine number, 0 to Threads-1, for benchmarks that
// give each thread its own share of the work; in a group (RegisterGroup),
// the number within its member, 0 to the member's threads-1.
func (b *B) Thread() int { return b.w.Thread() }

// Param returns the value of the named parameter for this run. It panics
// if the benchmark did not declare the parameter, which fails the run.
func (b *B) Param(name string) string { return b.w.Param(name) }

// IntParam returns the named parameter as an int. A value that is not an
// integer fails the run with the parameter's name and value.
func (b *B) IntParam(name string) int { return b.w.IntParam(name) }
