package worker

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/google/go-cmp/cmp"
)

func testingAssignment(mode protocol.Mode, warm, meas protocol.Phase, opi int) *protocol.Assignment {
	a := assignment(mode, warm, meas, opi)
	a.Run.Settings.Threads = 1
	return a
}

func runTesting(t *testing.T, a *protocol.Assignment, fn func(*testing.B)) ([]protocol.Iteration, error) {
	t.Helper()
	var its []protocol.Iteration
	_, err := RunTesting(a, fn, func(it *protocol.Iteration) error {
		its = append(its, *it)
		return nil
	})
	return its, err
}

// phases lists each iteration's phase and index.
func phases(its []protocol.Iteration) []string {
	var out []string
	for _, it := range its {
		out = append(out, fmt.Sprintf("%s %d", it.Phase, it.Index))
	}
	return out
}

func TestRunTestingIterationsAndMetrics(t *testing.T) {
	a := testingAssignment(protocol.ModeAverageTime,
		protocol.Phase{Iterations: 1, Time: time.Millisecond, BatchSize: 4},
		protocol.Phase{Iterations: 2, Time: 2 * time.Millisecond, BatchSize: 4}, 2)
	var sink []byte
	its, err := runTesting(t, a, func(b *testing.B) {
		b.SetBytes(64)
		for b.Loop() {
			sink = make([]byte, 64)
		}
		b.ReportMetric(7, "widgets/op")
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = sink
	if diff := cmp.Diff([]string{"warmup 1", "measurement 1", "measurement 2"}, phases(its)); diff != "" {
		t.Fatalf("iterations (-want +got):\n%s", diff)
	}
	for _, it := range its {
		if it.Invocations == 0 || it.TimeNs <= 0 {
			t.Fatalf("empty iteration %+v", it)
		}
		// JMH: ops = invocations × ops_per_invocation ÷ batch_size.
		if want := float64(it.Invocations) * 2 / 4; it.Ops != want {
			t.Errorf("%s %d: ops = %v, want %v", it.Phase, it.Index, it.Ops, want)
		}
		if got := it.Metrics[MetricAllocs]; math.Abs(got-1) > 0.01 {
			t.Errorf("allocs/op = %v, want 1", got)
		}
		if got := it.Metrics[MetricAllocBytes]; got < 64 || got > 80 {
			t.Errorf("B/op = %v, want 64", got)
		}
		wantMBs := 64 * float64(it.Invocations) / 1e6 / (it.TimeNs / 1e9)
		if got := it.Metrics[MetricMBPerSec]; math.Abs(got-wantMBs) > 1e-9*wantMBs {
			t.Errorf("MB/s = %v, want %v", got, wantMBs)
		}
		if got := it.Metrics["widgets/op"]; got != 7 {
			t.Errorf("widgets/op = %v, want 7", got)
		}
	}
}

func TestRunTestingSingleShotRunsOneBatch(t *testing.T) {
	one := protocol.Phase{Iterations: 2, Time: time.Second, BatchSize: 7}
	for _, body := range []struct {
		name string
		fn   func(*testing.B)
	}{
		{"b.Loop", func(b *testing.B) {
			for b.Loop() {
			}
		}},
		{"b.N", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
			}
		}},
	} {
		t.Run(body.name, func(t *testing.T) {
			its, err := runTesting(t, testingAssignment(protocol.ModeSingleShot, one, one, 3), body.fn)
			if err != nil {
				t.Fatal(err)
			}
			if len(its) != 4 {
				t.Fatalf("%d iterations, want 4", len(its))
			}
			for _, it := range its {
				// One batch of 7 invocations, which is one op of
				// ops_per_invocation operations.
				if it.Invocations != 7 || it.Ops != 3 {
					t.Errorf("%s %d: invocations %d ops %v, want 7 and 3", it.Phase, it.Index, it.Invocations, it.Ops)
				}
			}
		})
	}
}

func TestRunTestingFailures(t *testing.T) {
	quick := protocol.Phase{Iterations: 1, Time: time.Millisecond, BatchSize: 1}
	tests := []struct {
		name string
		mode protocol.Mode
		fn   func(*testing.B)
		want string
	}{
		{"fatal", protocol.ModeAverageTime, func(b *testing.B) { b.Fatal("no input") }, "the benchmark failed"},
		{"early return", protocol.ModeAverageTime, func(b *testing.B) { b.Loop() }, "the benchmark failed"},
		{"skip", protocol.ModeAverageTime, func(b *testing.B) { b.Skip("not here") }, "skipped itself"}, // a *SkipError: the run is skipped
		{"panic", protocol.ModeAverageTime, func(b *testing.B) { panic("boom") }, "panic: boom"},
		{"sample", protocol.ModeSampleTime, func(b *testing.B) {}, "sample mode is not available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runTesting(t, testingAssignment(tt.mode, quick, quick, 1), tt.fn)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			var pe *PanicError
			if tt.name == "panic" && (!errors.As(err, &pe) || len(pe.Stack) == 0) {
				t.Errorf("a panic should come with its stack: %#v", err)
			}
		})
	}
}

func TestRunTestingLeavesTheFlagsAlone(t *testing.T) {
	before := testingFlag(t, "test.benchtime")
	quick := protocol.Phase{Iterations: 1, Time: time.Millisecond, BatchSize: 1}
	if _, err := runTesting(t, testingAssignment(protocol.ModeSingleShot, quick, quick, 1), func(b *testing.B) {
		for b.Loop() {
		}
	}); err != nil {
		t.Fatal(err)
	}
	if after := testingFlag(t, "test.benchtime"); after != before {
		t.Errorf("-test.benchtime is %q after RunTesting, was %q", after, before)
	}
}

func testingFlag(t *testing.T, name string) string {
	t.Helper()
	f := flag.Lookup(name)
	if f == nil {
		t.Fatalf("no flag %s in a test binary", name)
	}
	return f.Value.String()
}
