package worker

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
)

// `for range b.Invocations()` is `for b.Loop()` with the counter in a
// register: every mode must report exactly the same iterations for the
// same body, chunk by chunk.
func TestInvocationsReportsWhatLoopReports(t *testing.T) {
	type body func(clk *fakeClock, k *int64)
	for _, tc := range []struct {
		name string
		a    *protocol.Assignment
		rnd  Rand
		step body // one invocation's work
	}{
		{"avgt", assignment(protocol.ModeAverageTime, protocol.Phase{Iterations: 2, Time: time.Microsecond, BatchSize: 1},
			protocol.Phase{Iterations: 3, Time: 10 * time.Microsecond, BatchSize: 1}, 1), fixedRand(0.5),
			func(clk *fakeClock, k *int64) { clk.t += 7 + *k%5; *k++ }},
		{"thrpt batch 5 opi 3", assignment(protocol.ModeThroughput, protocol.Phase{Iterations: 1, Time: time.Microsecond, BatchSize: 5},
			protocol.Phase{Iterations: 2, Time: 3 * time.Microsecond, BatchSize: 5}, 3), fixedRand(0.5),
			func(clk *fakeClock, k *int64) { clk.t += 13; *k++ }},
		{"ss", assignment(protocol.ModeSingleShot, protocol.Phase{Iterations: 1, Time: time.Second, BatchSize: 10},
			protocol.Phase{Iterations: 2, Time: time.Second, BatchSize: 1000}, 4), fixedRand(0.5),
			func(clk *fakeClock, k *int64) { clk.t += 10 + *k%3; *k++ }},
		{"sample, every invocation", assignment(protocol.ModeSampleTime, protocol.Phase{},
			protocol.Phase{Iterations: 1, Time: 100 * time.Microsecond, BatchSize: 1}, 1), fixedRand(0),
			func(clk *fakeClock, k *int64) { clk.t += *k%100 + 1; *k++ }},
		{"sample, random gaps", assignment(protocol.ModeSampleTime, protocol.Phase{Iterations: 1, Time: 50 * time.Microsecond, BatchSize: 2},
			protocol.Phase{Iterations: 2, Time: 200 * time.Microsecond, BatchSize: 2}, 1), fixedRand(0.7),
			func(clk *fakeClock, k *int64) { clk.t += *k%10 + 1; *k++ }},
	} {
		var calls [2]int64
		loopClk, rangeClk := &fakeClock{}, &fakeClock{}
		want := collectRand(t, tc.a, loopClk, tc.rnd, func(b *B) {
			for b.Loop() {
				tc.step(loopClk, &calls[0])
			}
		})
		got := collectRand(t, tc.a, rangeClk, tc.rnd, func(b *B) {
			for range b.Invocations() {
				tc.step(rangeClk, &calls[1])
			}
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: Invocations' iterations differ from Loop's (-Loop +Invocations):\n%s", tc.name, d)
		}
		if calls[0] != calls[1] || calls[0] == 0 {
			t.Errorf("%s: the body ran %d times under Loop, %d under Invocations", tc.name, calls[0], calls[1])
		}
	}
}

func TestInvocationsMisuseFailsTheFork(t *testing.T) {
	a := assignment(protocol.ModeAverageTime, protocol.Phase{},
		protocol.Phase{Iterations: 2, Time: time.Microsecond, BatchSize: 1}, 1)
	for name, tc := range map[string]struct {
		body func(*B, *fakeClock)
		want string
	}{
		"break": {func(b *B, clk *fakeClock) {
			for range b.Invocations() {
				if clk.t += 10; clk.t > 500 {
					break
				}
			}
		}, "returned before b.Loop() reported false"},
		"return": {func(b *B, clk *fakeClock) {
			for range b.Invocations() {
				return
			}
		}, "returned before b.Loop() reported false"},
		"reset inside": {func(b *B, clk *fakeClock) {
			for range b.Invocations() {
				clk.t += 10
				b.ResetTimer()
			}
		}, "b.ResetTimer inside `for range b.Invocations()`"},
	} {
		clk := &fakeClock{}
		_, err := RunFork(a, func(b *B) { tc.body(b, clk) }, clk, fixedRand(0.5), func(*protocol.Iteration) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, tc.want)
		}
	}
}

func TestInvocationsResetBeforeTheLoop(t *testing.T) {
	// Setup before the loop, then ResetTimer, as testing.B bodies do: no
	// iteration has started, so there is nothing to reset and no error.
	clk := &fakeClock{}
	a := assignment(protocol.ModeAverageTime, protocol.Phase{},
		protocol.Phase{Iterations: 1, Time: time.Microsecond, BatchSize: 1}, 1)
	got := collect(t, a, clk, func(b *B) {
		clk.t += 5000
		b.ResetTimer()
		for range b.Invocations() {
			clk.t += 10
		}
	})
	if got[0].TimeNs != 1000 || got[0].Invocations != 100 {
		t.Errorf("time %v invocations %d, want 1000 ns and 100", got[0].TimeNs, got[0].Invocations)
	}
}

// With threads, each thread's B counts its own chunks: the iterations
// combine to exactly the invocations the bodies ran.
func TestInvocationsWithThreads(t *testing.T) {
	var calls atomic.Int64
	meas := protocol.Phase{Iterations: 2, Time: 5 * time.Millisecond, BatchSize: 1}
	var its []protocol.Iteration
	_, err := RunFork(threaded(protocol.ModeAverageTime, 2, meas), func(b *B) {
		for range b.Invocations() {
			calls.Add(1)
		}
	}, SystemClock(), SystemRand(), func(it *protocol.Iteration) error {
		its = append(its, *it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for _, it := range its {
		sum += it.Invocations
	}
	if len(its) != 2 || sum != uint64(calls.Load()) || sum == 0 {
		t.Errorf("%d iterations counting %d invocations; the bodies ran %d times", len(its), sum, calls.Load())
	}
}
