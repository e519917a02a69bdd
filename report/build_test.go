package report

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/spec"
)

func TestBuildAverageTimeExcludesWarmup(t *testing.T) {
	p, forks, env := fixture()
	rep := Build(p, forks, env)
	run := rep.Runs[0]
	if run.Status != StatusOK || run.Primary == nil {
		t.Fatalf("status %q, primary %v; want ok with a primary metric", run.Status, run.Primary)
	}
	m := run.Primary
	// Warmup fork 1 (1000 ns/op) and the warmup iterations (100, 50) are out.
	want := [][]Float{{10, 11, 12}, {12, 13, 14}}
	if diff := cmp.Diff(want, m.RawData, floatCmp); diff != "" {
		t.Errorf("raw data (-want +got):\n%s", diff)
	}
	// Fork means 11 and 13: s = √2, t(0.9995, 1)·√2/√2 = 636.619. JMH's
	// error over the 6 iterations stays as IterationError.
	if m.Count != 6 || m.Score != 12 || m.ScoreUnit != "ns/op" || m.Min != 10 || m.Max != 14 ||
		!near(float64(m.ScoreError), 636.619, 5e-4) || !near(float64(m.IterationError), 3.965719, 1e-6) {
		t.Errorf("primary = %d × %v ± %v (iterations ± %v) %s [%v, %v], want 6 × 12 ± 636.619 (iterations ± 3.965719) ns/op [10, 14]",
			m.Count, m.Score, m.ScoreError, m.IterationError, m.ScoreUnit, m.Min, m.Max)
	}
	if v := m.Variance; v == nil || v.Forks != 2 || !cmp.Equal(v.ForkMeans, []Float{11, 13}) ||
		!near(float64(v.WithinForkStdev), 1, 1e-12) || !near(float64(v.BetweenForkStdev), math.Sqrt(5.0/3), 1e-12) ||
		!near(float64(v.BetweenForkShare), 0.625, 1e-12) || v.TargetError != DefaultTargetError ||
		v.ForksNeeded == nil || *v.ForksNeeded < 1000 {
		// MSW = 4/4 = 1, MSB = 3·(1+1)/1 = 6, n0 = 3: σ²b = (6−1)/3 = 5/3,
		// share (5/3)/(8/3). ±1 % of 12 with fork means √2 apart takes
		// √k ≥ t·√2/0.12 ≈ 39, over a thousand forks.
		t.Errorf("variance = %+v (forks needed %v), want 2 forks 11 and 13, within 1, between √(5/3), share 0.625, over 1000 forks for ±1 %%", v, v.ForksNeeded)
	}
	// allocs/op 2 and 4 in the two measured forks.
	allocs, ok := run.SecondaryMetrics["allocs/op"]
	if !ok || allocs.Count != 2 || allocs.Score != 3 || allocs.ScoreUnit != "allocs/op" ||
		!near(float64(allocs.ScoreError), 636.619, 5e-4) { // t(0.9995, 1)·√2/√2
		t.Errorf("allocs/op = %+v, want 2 forks averaging 3 ± 636.619", allocs)
	}
	if got := []bool{run.Forks[0].Warmup, run.Forks[1].Warmup, run.Forks[2].Warmup}; !cmp.Equal(got, []bool{true, false, false}) {
		t.Errorf("forks' warmup flags = %v, want the warmup fork kept first", got)
	}
	if got := run.Forks[1].Iterations[2].Score; got != 10 {
		t.Errorf("fork 2 iteration score = %v, want 10", got)
	}
	if run.Threads != 1 || run.Params["size"] != "10" || run.Settings.Timeout != 10*time.Minute || run.Settings.Warmup.Time != time.Second {
		t.Errorf("threads %d, params %v, timeout %v, warmup time %v", run.Threads, run.Params, run.Settings.Timeout, run.Settings.Warmup.Time)
	}
}

func TestBuildSingleIterationHasNoError(t *testing.T) {
	p, forks, env := fixture()
	m := Build(p, forks, env).Runs[1].Primary
	if m.Count != 1 || m.Score != 5 || m.ScoreUnit != "ops/us" || m.ScoreError.Valid() || m.Stdev.Valid() ||
		m.ScoreConfidence[0].Valid() || m.ScoreConfidence[1].Valid() {
		t.Errorf("thrpt with one iteration = %+v, want 1 × 5 ops/us with no error, stdev or interval", m)
	}
}

func TestBuildSample(t *testing.T) {
	p, forks, env := fixture()
	run := Build(p, forks, env).Runs[2]
	m := run.Primary
	// 1..1000 ns over two measurement iterations; the warmup's 1..100 are out.
	if m.Count != 1000 || m.Score != 0.5005 || m.ScoreUnit != "us/op" || m.Histogram == nil || m.Histogram.Count != 1000 {
		t.Fatalf("sample primary = %d × %v %s, histogram %v; want 1000 × 0.5005 us/op", m.Count, m.Score, m.ScoreUnit, m.Histogram)
	}
	if diff := cmp.Diff([][]Float{{0.2505, 0.7505}}, m.RawData, floatCmp); diff != "" {
		t.Errorf("raw data = iteration means (-want +got):\n%s", diff)
	}
	for _, p := range percentiles {
		sm, ok := run.SecondaryMetrics[p.Name]
		if !ok || sm.Score != m.Percentiles[p.Key] || sm.Count != 1 || sm.ScoreUnit != "us/op" || sm.Histogram != nil {
			t.Errorf("secondary %s = %+v, want the primary's percentile %s = %v", p.Name, sm, p.Key, m.Percentiles[p.Key])
		}
	}
	if got := run.SecondaryMetrics["p0.50"].Score; !near(float64(got), 0.5, 1e-3) {
		t.Errorf("p0.50 = %v, want 0.5", got)
	}
}

func TestBuildFailedRunHasNoNumbers(t *testing.T) {
	p, forks, env := fixture()
	run := Build(p, forks, env).Runs[3]
	if run.Status != StatusFailed || run.Primary != nil || len(run.SecondaryMetrics) != 0 {
		t.Errorf("status %q, primary %v, secondary %v; want failed without numbers", run.Status, run.Primary, run.SecondaryMetrics)
	}
	if run.Error != "fork 2: exit status 2" || !strings.HasPrefix(run.StderrTail, "panic: boom") {
		t.Errorf("error %q, stderr tail %q", run.Error, run.StderrTail)
	}
	if len(run.Forks) != 2 || run.Forks[1].Error != "exit status 2" || run.Forks[1].ExitStatus != 2 {
		t.Errorf("forks = %+v, want both, the second failed", run.Forks)
	}
}

func TestBuildFirstFailureWins(t *testing.T) {
	p, forks, env := fixture()
	for i := range forks {
		if forks[i].Run == 3 && forks[i].Fork == 1 {
			forks[i].Err, forks[i].StderrTail = "timeout after 10m0s", "tail 1"
		}
	}
	run := Build(p, forks, env).Runs[3]
	if run.Error != "fork 1: timeout after 10m0s" || run.StderrTail != "tail 1" {
		t.Errorf("error %q, tail %q; want fork 1's", run.Error, run.StderrTail)
	}
}

func TestBuildIncomplete(t *testing.T) {
	p, forks, env := fixture()
	if rep := Build(p, forks, env); !rep.Complete || len(rep.Runs) != 4 {
		t.Fatalf("fixture: complete %v with %d runs, want complete with 4", rep.Complete, len(rep.Runs))
	}
	var kept []protocol.ForkResult
	for _, f := range forks {
		// run 0 loses its last measured fork; run 1 never started
		if !(f.Run == 0 && f.Fork == 3) && f.Run != 1 {
			kept = append(kept, f)
		}
	}
	rep := Build(p, kept, env)
	if rep.Complete || len(rep.Runs) != 3 {
		t.Fatalf("complete %v with %d runs, want incomplete with 3", rep.Complete, len(rep.Runs))
	}
	run := rep.Runs[0]
	if run.Status != StatusFailed || run.Primary != nil || run.Error != "incomplete: 1 of 2 measured forks ran" {
		t.Errorf("interrupted run: status %q, error %q, primary %v", run.Status, run.Error, run.Primary)
	}
}

func TestBuildEnv(t *testing.T) {
	p, forks, env := fixture()
	rep := Build(p, forks, env)
	// Resolutions 30+fork over the six successful forks: 31 31 31 31 32 33.
	if rep.Env.TimerResolutionNs != 31 || rep.Env.TimerOverheadNs != 20 {
		t.Errorf("timer = %v ns resolution, %v ns overhead; want medians 31 and 20", rep.Env.TimerResolutionNs, rep.Env.TimerOverheadNs)
	}
	if rep.Env.End != env.End || rep.Suite != "seeds" || rep.SchemaVersion != 2 || len(rep.Specs) != 1 {
		t.Errorf("report header = %+v", rep)
	}
	empty := Build(p, nil, Env{})
	if empty.Env.TimerResolutionNs.Valid() || empty.Env.End.IsZero() || empty.Complete {
		t.Errorf("no forks: env %+v, complete %v; want no timer, an end time, incomplete", empty.Env, empty.Complete)
	}
}

func TestThreadsMax(t *testing.T) {
	for _, tc := range []struct {
		threads    int
		env        map[string]string
		gomaxprocs int
		want       int
	}{
		{4, nil, 8, 4},
		{spec.ThreadsMax, nil, 8, 8},
		{spec.ThreadsMax, map[string]string{"GOMAXPROCS": "2"}, 8, 2},
		{spec.ThreadsMax, map[string]string{"GOMAXPROCS": "lots"}, 8, 8},
	} {
		if got := threads(spec.Settings{Settings: protocol.Settings{Threads: tc.threads}, Env: tc.env}, tc.gomaxprocs); got != tc.want {
			t.Errorf("threads(%d, %v, %d) = %d, want %d", tc.threads, tc.env, tc.gomaxprocs, got, tc.want)
		}
	}
}

// floatCmp compares Floats, and the float64s of diagnostics' evidence,
// treating NaN as equal to NaN.
var floatCmp = cmp.Options{cmp.Comparer(func(a, b Float) bool {
	return a == b || (math.IsNaN(float64(a)) && math.IsNaN(float64(b)))
}), cmpopts.EquateNaNs()}

func TestBuildIterationMetrics(t *testing.T) {
	p, forks, env := fixture()
	for i := range forks {
		f := &forks[i]
		for j := range f.Iterations {
			// 1..3 in fork 2, 2..4 in fork 3; warmup fork and warmup iterations far off
			v := float64(f.Fork - 2 + f.Iterations[j].Index)
			if f.Warmup || f.Iterations[j].Phase == protocol.PhaseWarmup {
				v = 1000
			}
			f.Iterations[j].Metrics = map[string]float64{"gc.count": v}
		}
	}
	run := Build(p, forks, env).Runs[0]
	m := run.SecondaryMetrics["gc.count"]
	if diff := cmp.Diff([][]Float{{1, 2, 3}, {2, 3, 4}}, m.RawData, floatCmp); diff != "" || m.Score != 2.5 || m.Count != 6 {
		t.Errorf("gc.count = %v × %v, raw data (-want +got):\n%s", m.Count, m.Score, diff)
	}
	if got := run.Forks[1].Iterations[2].Metrics["gc.count"]; got != 1 {
		t.Errorf("fork 2's first measurement iteration metric = %v, want 1", got)
	}
}
