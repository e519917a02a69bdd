package worker

import (
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/benchspec/benchspec/internal/protocol"
)

func threaded(mode protocol.Mode, threads int, meas protocol.Phase) *protocol.Assignment {
	a := assignment(mode, protocol.Phase{}, meas, 1)
	a.Run.Settings.Threads = threads
	return a
}

// TestThreadsOverlapAndCombine: the threads of a fork measure at the same
// time, in synchronized iterations, and their results combine per mode.
// Every assertion holds however busy the machine is: the body's first op
// of each iteration waits until the other thread is inside its loop for
// the same iteration (threads run one after the other would wait for
// good; the wait gives up after a generous 10 s and fails the run).
func TestThreadsOverlapAndCombine(t *testing.T) {
	var counter atomic.Int64
	meas := protocol.Phase{Iterations: 2, Time: 20 * time.Millisecond, BatchSize: 1}
	for _, mode := range []protocol.Mode{protocol.ModeThroughput, protocol.ModeAverageTime} {
		var inLoop [2]atomic.Int64 // the iteration each thread's loop is in
		body := func(b *B) {
			me, other := b.Thread(), 1-b.Thread()
			var iter int64
			first := false
			b.SetupIteration(func() { iter++; first = true })
			for b.Loop() {
				counter.Add(1)
				if first {
					first = false
					inLoop[me].Store(iter)
					for deadline := time.Now().Add(10 * time.Second); inLoop[other].Load() < iter; runtime.Gosched() {
						if time.Now().After(deadline) {
							b.Fatalf("thread %d waited 10 s for thread %d in iteration %d: the threads do not run at once", me, other, iter)
						}
					}
				}
			}
		}
		var its []protocol.Iteration
		_, err := RunFork(threaded(mode, 2, meas), body, SystemClock(), SystemRand(), func(it *protocol.Iteration) error {
			its = append(its, *it)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(its) != 2 {
			t.Fatalf("%s: %d iterations, want 2 (the threads' results combined)", mode, len(its))
		}
		for i, it := range its {
			if len(it.Windows) != 2 {
				t.Fatalf("%s: %d thread windows, want 2", mode, len(it.Windows))
			}
			// Each thread's window starts before the other's ends.
			w0, w1 := it.Windows[0], it.Windows[1]
			if !(w0[0] < w1[1] && w1[0] < w0[1]) {
				t.Errorf("%s: windows %v and %v do not overlap", mode, w0, w1)
			}
			// Synchronized iterations: no thread starts an iteration before
			// every thread has ended the one before.
			if i > 0 {
				prev := its[i-1].Windows
				if end, start := max(prev[0][1], prev[1][1]), min(w0[0], w1[0]); start < end {
					t.Errorf("%s: iteration %d starts at %d, before iteration %d ended at %d", mode, i+1, start, i, end)
				}
			}
			// Both threads ran at least the iteration time, and the
			// combined time is exactly the sum (avgt) or the mean (thrpt)
			// of the threads' windows.
			minTime, sum := float64(meas.Time), float64(w0[1]-w0[0]+w1[1]-w1[0])
			want, how := sum, "sum"
			if mode == protocol.ModeAverageTime {
				minTime *= 2
			} else {
				want, how = sum/2, "mean"
			}
			if it.TimeNs < minTime || it.TimeNs != want {
				t.Errorf("%s: combined time %v ns, want the %s of the two threads' windows, %v ns, at least %v ns", mode, it.TimeNs, how, want, minTime)
			}
			if it.Ops != float64(it.Invocations) {
				t.Errorf("%s: ops %v, want the invocations of both threads %d", mode, it.Ops, it.Invocations)
			}
		}
	}
}

func TestCombineArithmetic(t *testing.T) {
	parts := []protocol.Iteration{{Ops: 100, TimeNs: 1000, Invocations: 100}, {Ops: 300, TimeNs: 3000, Invocations: 300}}
	thrpt := combine(protocol.ModeThroughput, parts)
	avgt := combine(protocol.ModeAverageTime, parts)
	// thrpt sums the per-thread rates: 100/1000 + 300/3000 = 0.2 ops/ns.
	if got := thrpt.Ops / thrpt.TimeNs; got != 0.2 {
		t.Errorf("thrpt combined = %v ops/ns, want 0.2", got)
	}
	// avgt: all time over all ops, 4000/400 = 10 ns/op.
	if got := avgt.TimeNs / avgt.Ops; got != 10 {
		t.Errorf("avgt combined = %v ns/op, want 10", got)
	}
}

func TestIterationHooksAreOutsideTheWindow(t *testing.T) {
	clk := &fakeClock{}
	a := assignment(protocol.ModeSingleShot, protocol.Phase{Iterations: 1, BatchSize: 5},
		protocol.Phase{Iterations: 2, BatchSize: 5}, 1)
	var calls []string
	got := collect(t, a, clk, func(b *B) {
		b.SetupIteration(func() { calls = append(calls, "setup"); clk.t += 1e6 })
		b.TeardownIteration(func() { calls = append(calls, "teardown"); clk.t += 1e6 })
		for b.Loop() {
			clk.t += 10
		}
	})
	for _, it := range got {
		if it.TimeNs != 50 {
			t.Errorf("%s %d: %v ns, want 50 (hooks not timed)", it.Phase, it.Index, it.TimeNs)
		}
	}
	if want := strings.Repeat("setup teardown ", 3); strings.Join(calls, " ")+" " != want {
		t.Errorf("hooks ran %v, want setup and teardown around each of 3 iterations", calls)
	}
}

func TestSetupFailuresFailTheFork(t *testing.T) {
	a := threaded(protocol.ModeAverageTime, 2, protocol.Phase{Iterations: 1, Time: time.Millisecond, BatchSize: 1})
	for name, tc := range map[string]struct {
		body Func
		want string
	}{
		"fatal in trial setup": {func(b *B) {
			b.Fatal(errors.New("cannot open fixture"))
		}, "cannot open fixture"},
		"panic in one thread's setup": {func(b *B) {
			if b.Thread() == 1 {
				panic("thread 1 setup")
			}
			for b.Loop() {
			}
		}, "panic: thread 1 setup"},
		"fatal in iteration setup": {func(b *B) {
			b.SetupIteration(func() { b.Fatalf("iteration setup: %d", 42) })
			for b.Loop() {
			}
		}, "iteration setup: 42"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := RunFork(a, tc.body, SystemClock(), SystemRand(), func(*protocol.Iteration) error { return nil })
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: err = %v, want %q", name, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the other thread was left waiting", name)
		}
	}
}

var allocSink []byte

func TestGCProfilerCountsAllocations(t *testing.T) {
	meas := protocol.Phase{Iterations: 2, Time: 10 * time.Millisecond, BatchSize: 1}
	for _, tc := range []struct {
		name        string
		body        Func
		bytes, objs float64
	}{
		{"one 1 KiB slice per op", func(b *B) {
			for b.Loop() {
				allocSink = make([]byte, 1024)
			}
		}, 1024, 1},
		{"no allocation", func(b *B) {
			x := 0
			for b.Loop() {
				x++
			}
			allocSink = make([]byte, x%2)
		}, 0, 0},
	} {
		a := assignment(protocol.ModeAverageTime, protocol.Phase{}, meas, 1)
		a.Run.Settings.Profilers = []string{"gc"}
		var its []protocol.Iteration
		if _, err := RunFork(a, tc.body, SystemClock(), SystemRand(), func(it *protocol.Iteration) error {
			its = append(its, *it)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, it := range its {
			// The counters are exact; what else the process allocates
			// between the two readings (the harness's bookkeeping, the
			// runtime's own: a few objects, a few KiB, more when
			// collections run inside the iteration, as 1 KiB per op makes
			// them do) is spread over the iteration's ops. On a busy
			// machine a 10 ms iteration may hold only hundreds of ops, so
			// the tolerance follows the op count rather than assuming
			// thousands (under cpu-hog 2: 7 objects and 5.4 KiB more over
			// 4054 ops). A profiler that miscounted would be off by whole
			// allocations per op, far outside it.
			bytesTol, objsTol := max(1, 16384/it.Ops), max(0.001, 16/it.Ops)
			if b := it.Metrics[MetricAllocBytes]; b < tc.bytes-bytesTol || b > tc.bytes+bytesTol {
				t.Errorf("%s: %v B/op over %v ops, want %v", tc.name, b, it.Ops, tc.bytes)
			}
			if o := it.Metrics[MetricAllocs]; o < tc.objs-objsTol || o > tc.objs+objsTol {
				t.Errorf("%s: %v allocs/op over %v ops, want %v", tc.name, o, it.Ops, tc.objs)
			}
		}
	}
}

// TestNoProfilerAllocatesNothing: a fork whose run asks for no profiler
// it can run gets none, and allocates nothing for it (a profiler holds a
// runtime.MemStats: in a fresh fork, a page not yet touched); one that
// asks for one gets it.
func TestNoProfilerAllocatesNothing(t *testing.T) {
	for _, c := range []struct {
		names []string
		dir   string
		want  bool
	}{
		{nil, "", false},
		{nil, t.TempDir(), false},
		{[]string{"cpu", "heap"}, "", false}, // file-writing ones without a directory
		{[]string{"gc"}, "", true},
		{[]string{"cpu"}, t.TempDir(), true},
	} {
		if got := newProfiler(c.names, c.dir, "k", 1) != nil; got != c.want {
			t.Errorf("newProfiler(%q, %q): a profiler %v, want %v", c.names, c.dir, got, c.want)
		}
		if !c.want {
			if n := testing.AllocsPerRun(10, func() { newProfiler(c.names, c.dir, "k", 1) }); n != 0 {
				t.Errorf("newProfiler(%q, %q): %v allocations, want none", c.names, c.dir, n)
			}
		}
	}
}

// TestEmitOnCallersGoroutine checks that RunBound sends every iteration
// from the goroutine that called it, never from a body's (whose small
// stack encoding and writing would grow at the end of the first
// iteration), with one thread and with several, and that emit's error
// still stops the fork.
func TestEmitOnCallersGoroutine(t *testing.T) {
	meas := protocol.Phase{Iterations: 3, Time: time.Millisecond, BatchSize: 1}
	for _, threads := range []int{1, 3} {
		n := 0
		_, err := RunFork(threaded(protocol.ModeAverageTime, threads, meas), func(b *B) {
			for b.Loop() {
			}
		}, SystemClock(), SystemRand(), func(*protocol.Iteration) error {
			buf := make([]byte, 64<<10)
			stack := string(buf[:runtime.Stack(buf, false)])
			if strings.Contains(stack, "worker.runBody") || !strings.Contains(stack, "worker.RunBound(") {
				t.Errorf("%d threads: emit called from another goroutine than RunBound's:\n%s", threads, stack)
			}
			n++
			if n == 2 {
				return errors.New("pipe closed")
			}
			return nil
		})
		if err == nil || !strings.Contains(err.Error(), "pipe closed") {
			t.Errorf("%d threads: RunFork = %v, want emit's error", threads, err)
		}
		if n != 2 {
			t.Errorf("%d threads: emit called %d times, want 2 (the fork stops at its error)", threads, n)
		}
	}
}

// TestIterationEndKeepsTheBodysStack checks that reporting an iteration
// does not grow a small body's goroutine stack, in throughput, average
// and single-shot modes: a
// goroutine starts with 2 KiB of stack, and the end of an iteration runs
// under the body's frames (Loop, its slow path, the group, the hand-over
// to RunBound's goroutine). A growth there copies the stack and reads the
// unwinding tables of every frame on it, which in a fresh fork are pages
// not yet read (4 page faults at the end of every minimal fork, about
// 0.1 ms on the 2-core AMD EPYC VM). A copied stack moves the body's
// locals, so the address of one, taken before and after the loop, tells.
//
// Not sample mode: its iteration end runs a frame deeper (sample) and
// snapshots the histogram, whose allocation now and then takes the
// allocator's slow path (mcache.nextFree) or the hand-over's channel
// blocks, and that outgrows 2 KiB: 5 of 100 runs of this test grew there
// (perf probe on runtime.morestack, 2026-12-01), as every sample-mode
// fork's stack did before.
func TestIterationEndKeepsTheBodysStack(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector enlarges every frame")
	}
	meas := protocol.Phase{Iterations: 3, Time: 200 * time.Microsecond, BatchSize: 1}
	for _, mode := range []protocol.Mode{protocol.ModeThroughput, protocol.ModeAverageTime, protocol.ModeSingleShot} {
		var before, after uintptr
		_, err := RunFork(assignment(mode, meas, meas, 1), func(b *B) {
			var local byte
			before = uintptr(unsafe.Pointer(&local))
			for b.Loop() {
			}
			after = uintptr(unsafe.Pointer(&local))
		}, SystemClock(), SystemRand(), func(*protocol.Iteration) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			t.Errorf("%s: the body's stack moved from %#x to %#x during its loop: it grew at the end of an iteration", mode, before, after)
		}
	}
}
