package worker_test

import (
	"math"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// clock is advanced only by the benchmark body, so each mode's score,
// error, Cnt and unit are known exactly, independent of machine speed.
type clock struct{ t int64 }

func (c *clock) Now() int64 { return c.t }

type zeroRand struct{}

func (zeroRand) Float64() float64 { return 0 } // sample every batch

// t(0.9995, 3): the 99.9 % two-sided Student-t quantile with 3 degrees of
// freedom, from published tables.
const t3 = 12.92398

// TestModeArithmeticEndToEnd runs two forks of two measurement
// iterations through the worker's loops with a fake clock, where every
// invocation costs 10 ns in fork 1 and 30 ns in fork 2, and checks the
// report's score, error, Cnt and unit for every mode with batch_size 4
// and ops_per_invocation 2.
func TestModeArithmeticEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		mode     protocol.Mode
		unit     string
		timeUnit string
		// the per-iteration scores of fork 1 and fork 2
		f1, f2 float64
		cnt    int
	}{
		// avgt: ops = invocations × 2 ÷ 4, so an op costs 2 invocations:
		// 20 ns and 60 ns.
		{protocol.ModeAverageTime, "ns/op", "ns", 20, 60, 4},
		{protocol.ModeAverageTime, "us/op", "us", 0.020, 0.060, 4},
		// thrpt: the inverse, in ops/us: 50 and 16.67.
		{protocol.ModeThroughput, "ops/us", "us", 50, 1000.0 / 60, 4},
		// ss: one batch of 4 invocations (40 or 120 ns) ÷ 2 ops.
		{protocol.ModeSingleShot, "ns/op", "ns", 20, 60, 4},
		// sample: each sample is one batch (4 invocations) ÷ 2 ops; Cnt
		// is the number of samples.
		{protocol.ModeSampleTime, "ns/op", "ns", 20, 60, 0},
	} {
		run := plan.Run{Key: "k", Benchmark: "b", Mode: tc.mode, Settings: spec.Settings{
			TimeUnit: tc.timeUnit, Forks: 2, Settings: protocol.Settings{OpsPerInvocation: 2, Threads: 1,
				Warmup:      spec.Iterations{Iterations: 1, Time: time.Microsecond, BatchSize: 4},
				Measurement: spec.Iterations{Iterations: 2, Time: time.Microsecond, BatchSize: 4}},
		}}
		var forks []protocol.ForkResult
		for f, cost := range []int64{10, 30} {
			clk := &clock{}
			fr := protocol.ForkResult{Run: 0, Fork: f + 1}
			a := &protocol.Assignment{Run: run.Fork(), Fork: f + 1}
			_, err := worker.RunFork(a, func(b *worker.B) {
				for b.Loop() {
					clk.t += cost
				}
			}, clk, zeroRand{}, func(it *protocol.Iteration) error {
				fr.Iterations = append(fr.Iterations, *it)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			forks = append(forks, fr)
		}
		rep := report.Build(&plan.Plan{Runs: []plan.Run{run}}, forks, report.Env{})
		m := rep.Runs[0].Primary
		if m == nil {
			t.Fatalf("%s: no primary metric: %s", tc.mode, rep.Runs[0].Error)
		}
		mean := (tc.f1 + tc.f2) / 2
		if tc.mode == protocol.ModeSampleTime {
			// The mean of all samples: 25 per iteration in fork 1 (40 ns
			// batches in 1 µs), 9 in fork 2 (120 ns batches, the last
			// one overrunning the iteration).
			mean = (2*25*tc.f1 + 2*9*tc.f2) / (2*25 + 2*9)
		}
		if !near(float64(m.Score), mean) || m.ScoreUnit != tc.unit {
			t.Errorf("%s %s: score %v %s, want %v %s", tc.mode, tc.timeUnit, m.Score, m.ScoreUnit, mean, tc.unit)
		}
		if tc.mode == protocol.ModeSampleTime {
			// Every batch of the 1 µs iterations is sampled: 1000/40 and
			// 1000/120 batches, rounded up, per iteration.
			if want := 2*25 + 2*9; m.Count != want {
				t.Errorf("sample: Cnt %d, want %d samples", m.Count, want)
			}
			if !near(float64(m.Percentiles["0.0"]), 20) || !near(float64(m.Percentiles["100.0"]), 60) {
				t.Errorf("sample: percentiles %v, want 20 … 60", m.Percentiles)
			}
			continue
		}
		// Scores {f1, f1, f2, f2}: stdev = |f2-f1|/√3, JMH's iteration
		// error = t3·stdev/√4. Fork means f1 and f2: their stdev is
		// |f2-f1|/√2, error = t(0.9995, 1)·|f2-f1|/√2/√2.
		stdev := math.Abs(tc.f2-tc.f1) / math.Sqrt(3)
		if m.Count != tc.cnt || !near(float64(m.Stdev), stdev) || !near(float64(m.IterationError), t3*stdev/2) {
			t.Errorf("%s: Cnt %d stdev %v iteration error %v; want %d, %v, %v", tc.mode, m.Count, m.Stdev, m.IterationError, tc.cnt, stdev, t3*stdev/2)
		}
		if forkErr := 636.6192 * math.Abs(tc.f2-tc.f1) / 2; !near(float64(m.ScoreError), forkErr) {
			t.Errorf("%s: error %v, want %v over the two fork means", tc.mode, m.ScoreError, forkErr)
		}
	}
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-6*math.Abs(want) }
