package worker

import (
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/google/go-cmp/cmp"
)

// fakeClock advances only when a benchmark body says so: reading it is
// free, so every mode's arithmetic can be checked exactly.
type fakeClock struct{ t int64 }

func (c *fakeClock) Now() int64 { return c.t }

// fixedRand always returns the same draw.
type fixedRand float64

func (r fixedRand) Float64() float64 { return float64(r) }

func assignment(mode protocol.Mode, warm, meas protocol.Phase, opi int) *protocol.Assignment {
	return &protocol.Assignment{Run: protocol.Run{
		Benchmark: "fake", Mode: mode,
		Settings: protocol.Settings{Warmup: warm, Measurement: meas, OpsPerInvocation: opi},
	}}
}

func collect(t *testing.T, a *protocol.Assignment, clk *fakeClock, body Func) []protocol.Iteration {
	return collectRand(t, a, clk, fixedRand(0.5), body)
}

func collectRand(t *testing.T, a *protocol.Assignment, clk *fakeClock, rnd Rand, body Func) []protocol.Iteration {
	t.Helper()
	var its []protocol.Iteration
	_, err := RunFork(a, body, clk, rnd, func(it *protocol.Iteration) error {
		its = append(its, *it)
		return nil
	})
	if err != nil {
		t.Fatalf("RunFork: %v", err)
	}
	return its
}

// tenNs is a body whose every invocation takes 10 fake nanoseconds.
func tenNs(clk *fakeClock) Func {
	return func(b *B) {
		for b.Loop() {
			clk.t += 10
		}
	}
}

func TestTimeModesCountOpsLikeJMH(t *testing.T) {
	// 1 µs iterations of 10 ns invocations: 100 invocations each. JMH
	// counts ops = invocations × ops_per_invocation ÷ batch_size.
	for _, tc := range []struct {
		mode     protocol.Mode
		batch    int
		opi      int
		wantOps  float64
		wantTime float64
	}{
		{protocol.ModeAverageTime, 1, 1, 100, 1000},
		{protocol.ModeThroughput, 1, 1, 100, 1000},
		{protocol.ModeAverageTime, 4, 2, 50, 1000},
		{protocol.ModeThroughput, 5, 1, 20, 1000},
		{protocol.ModeAverageTime, 1, 3, 300, 1000},
	} {
		clk := &fakeClock{}
		it := protocol.Phase{Iterations: 2, Time: time.Microsecond, BatchSize: tc.batch}
		got := collect(t, assignment(tc.mode, protocol.Phase{Iterations: 1, Time: time.Microsecond, BatchSize: tc.batch}, it, tc.opi), clk, tenNs(clk))
		want := []protocol.Iteration{
			{Phase: "warmup", Index: 1, Ops: tc.wantOps, TimeNs: tc.wantTime, Invocations: 100},
			{Phase: "measurement", Index: 1, Ops: tc.wantOps, TimeNs: tc.wantTime, Invocations: 100},
			{Phase: "measurement", Index: 2, Ops: tc.wantOps, TimeNs: tc.wantTime, Invocations: 100},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s batch %d opi %d: iterations (-want +got):\n%s", tc.mode, tc.batch, tc.opi, d)
		}
	}
}

func TestSingleShotTimesOneBatch(t *testing.T) {
	clk := &fakeClock{}
	a := assignment(protocol.ModeSingleShot,
		protocol.Phase{Iterations: 1, Time: time.Second, BatchSize: 10},
		protocol.Phase{Iterations: 2, Time: time.Second, BatchSize: 1000}, 4)
	got := collect(t, a, clk, tenNs(clk))
	want := []protocol.Iteration{
		{Phase: "warmup", Index: 1, Ops: 4, TimeNs: 100, Invocations: 10},
		{Phase: "measurement", Index: 1, Ops: 4, TimeNs: 10000, Invocations: 1000},
		{Phase: "measurement", Index: 2, Ops: 4, TimeNs: 10000, Invocations: 1000},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("iterations (-want +got):\n%s", d)
	}
}

func TestSampleModeHistogram(t *testing.T) {
	// Invocation k takes (k mod 100)+1 ns: a uniform distribution on
	// 1..100. A random draw of 0 makes every gap between samples 0, so
	// every invocation is sampled and the percentiles are known.
	clk := &fakeClock{}
	a := assignment(protocol.ModeSampleTime, protocol.Phase{},
		protocol.Phase{Iterations: 1, Time: time.Millisecond, BatchSize: 1}, 1)
	k := int64(0)
	got := collectRand(t, a, clk, fixedRand(0), func(b *B) {
		for b.Loop() {
			clk.t += k%100 + 1
			k++
		}
	})
	if len(got) != 1 || got[0].Histogram == nil {
		t.Fatalf("got %d iterations, want 1 with a histogram", len(got))
	}
	h := got[0].Histogram
	if h.Count != uint64(k) {
		t.Errorf("samples = %d, want every invocation (%d)", h.Count, k)
	}
	if got[0].Ops != float64(h.Count) || got[0].TimeNs != h.Sum {
		t.Errorf("ops %v time %v, want samples %d and their sum %v", got[0].Ops, got[0].TimeNs, h.Count, h.Sum)
	}
	if h.Min != 1 || h.Max != 100 {
		t.Errorf("min, max = %v, %v; want 1, 100", h.Min, h.Max)
	}
	hg := hist.FromSnapshot(*h)
	for _, q := range []struct{ q, want float64 }{{0.5, 50}, {0.9, 90}, {0.99, 99}, {0.999, 100}} {
		if got := hg.Quantile(q.q); math.Abs(got-q.want) > q.want*hist.Alpha {
			t.Errorf("p%v = %v, want %v within %.1f%%", q.q, got, q.want, 100*hist.Alpha)
		}
	}
}

func TestSampleModeBatchAndOpsPerInvocation(t *testing.T) {
	// A sample times one batch (4 invocations of 10 ns) and divides by
	// ops_per_invocation (2): every sample is 20 ns.
	clk := &fakeClock{}
	a := assignment(protocol.ModeSampleTime, protocol.Phase{},
		protocol.Phase{Iterations: 1, Time: 100 * time.Microsecond, BatchSize: 4}, 2)
	got := collect(t, a, clk, tenNs(clk))
	h := got[0].Histogram
	if h.Min != 20 || h.Max != 20 || h.Count == 0 {
		t.Errorf("samples: n=%d min=%v max=%v, want all 20 ns", h.Count, h.Min, h.Max)
	}
}

func TestSampleRateHalvesPerStride(t *testing.T) {
	// 2 ms of 1 ns invocations: JMH's stride is 20 samples per ms of
	// iteration (40 here), after each stride the rate halves, so far
	// fewer than the 2 000 000 invocations are timed.
	clk := &fakeClock{}
	a := assignment(protocol.ModeSampleTime, protocol.Phase{},
		protocol.Phase{Iterations: 1, Time: 2 * time.Millisecond, BatchSize: 1}, 1)
	got := collect(t, a, clk, func(b *B) {
		for b.Loop() {
			clk.t++
		}
	})
	n := got[0].Histogram.Count
	if n < 40 || n > 40*40 {
		t.Errorf("samples = %d, want a logarithmic number of strides of 40", n)
	}
}

func TestTimerControl(t *testing.T) {
	// Each invocation spends 1000 ns with the timer stopped and 10 ns
	// timed: only the 10 ns count, and the iteration still ends after
	// 1 µs of timed work. The same for both loop forms.
	for name, form := range map[string]func(b *B, each func()){
		"Loop": func(b *B, each func()) {
			for b.Loop() {
				each()
			}
		},
		"Invocations": func(b *B, each func()) {
			for range b.Invocations() {
				each()
			}
		},
	} {
		clk := &fakeClock{}
		a := assignment(protocol.ModeAverageTime, protocol.Phase{},
			protocol.Phase{Iterations: 1, Time: time.Microsecond, BatchSize: 1}, 1)
		got := collect(t, a, clk, func(b *B) {
			form(b, func() {
				b.StopTimer()
				clk.t += 1000
				b.StartTimer()
				clk.t += 10
			})
		})
		if got[0].TimeNs != 1000 || got[0].Invocations != 100 {
			t.Errorf("%s: time %v invocations %d, want 1000 ns and 100", name, got[0].TimeNs, got[0].Invocations)
		}
	}
}

func TestBodyMisuseFailsTheFork(t *testing.T) {
	a := assignment(protocol.ModeAverageTime, protocol.Phase{},
		protocol.Phase{Iterations: 1, Time: time.Microsecond, BatchSize: 1}, 1)
	for name, tc := range map[string]struct {
		body Func
		want string
	}{
		"returns early": {func(b *B) { b.Loop() }, "returned before b.Loop() reported false"},
		"never loops":   {func(b *B) {}, "returned before b.Loop() reported false"},
		"panics":        {func(b *B) { panic("boom") }, "panic: boom"},
		"bad param":     {func(b *B) { b.Param("size") }, `parameter "size" was not declared`},
		"goexit in the loop": {func(b *B) {
			for b.Loop() {
				runtime.Goexit()
			}
		}, "called runtime.Goexit"},
		"goexit before the loop": {func(b *B) { runtime.Goexit() }, "called runtime.Goexit"},
	} {
		_, err := RunFork(a, tc.body, &fakeClock{}, fixedRand(0.5), func(*protocol.Iteration) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, tc.want)
		}
	}
}

func TestReportMetricRejectsNonFinite(t *testing.T) {
	a := assignment(protocol.ModeAverageTime, protocol.Phase{},
		protocol.Phase{Iterations: 1, Time: time.Microsecond, BatchSize: 1}, 1)
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		clk := &fakeClock{}
		_, err := RunFork(a, func(b *B) {
			for b.Loop() {
				clk.t += 10
			}
			b.ReportMetric(v, "widgets/op")
		}, clk, fixedRand(0.5), func(*protocol.Iteration) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "a metric must be a finite number") {
			t.Errorf("ReportMetric(%v): err = %v", v, err)
		}
	}
}

// However long the iteration, the loop leaves its fast path at least
// every maxChunkTime (a tight loop left running for milliseconds slows
// down on some processors), in both loop forms; a short iteration still
// reads the clock about iterationChunks times.
func TestChunksStayShortInLongIterations(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(clk *fakeClock) Func
	}{
		{"Loop", tenNs},
		{"Invocations", func(clk *fakeClock) Func {
			return func(b *B) {
				for range b.Invocations() {
					clk.t += 10
				}
			}
		}},
	} {
		for _, iter := range []time.Duration{200 * time.Millisecond, time.Millisecond} {
			clk := &fakeClock{}
			c := &countingClock{Clock: clk}
			a := assignment(protocol.ModeAverageTime, protocol.Phase{}, protocol.Phase{Iterations: 1, Time: iter, BatchSize: 1}, 1)
			var its []protocol.Iteration
			if _, err := RunFork(a, tc.body(clk), c, fixedRand(0.5), func(it *protocol.Iteration) error {
				its = append(its, *it)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			want := max(int(iter/maxChunkTime), iterationChunks)
			if c.reads < want || c.reads > 2*want {
				t.Errorf("%s, %v iteration: %d clock reads, want %d to %d (a chunk at most %v)", tc.name, iter, c.reads, want, 2*want, maxChunkTime)
			}
			if over := time.Duration(its[0].TimeNs) - iter; over < 0 || over > maxChunkTime {
				t.Errorf("%s, %v iteration: overshot by %v, want at most one chunk (%v)", tc.name, iter, over, maxChunkTime)
			}
		}
	}
}
