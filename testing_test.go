package benchspec_test

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec"
)

func init() {
	// The dead-code trap, twice: the same loop with the result of
	// math.Sqrt dropped, once as a go test benchmark, whose `for b.Loop()`
	// the compiler keeps alive, and once through benchspec's B, where
	// nothing does.
	benchspec.RegisterTesting("gotest.SqrtDropped", func(b *testing.B) {
		x := 0.0
		for b.Loop() {
			_ = math.Sqrt(x)
			x++
		}
	})
	benchspec.Register("native.SqrtDropped", func(b *benchspec.B) {
		x := 0.0
		for b.Loop() {
			_ = math.Sqrt(x)
			x++
		}
	})
	benchspec.RegisterTesting("gotest.BN", func(b *testing.B) {
		b.SetBytes(8)
		s := make([]float64, 8)
		for i := 0; i < b.N; i++ {
			s[i%8] += math.Sqrt(float64(i))
		}
		b.ReportMetric(3, "widgets/op")
	})
}

func TestRegisterTestingRunsInForks(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^gotest\.BN$'
    modes: [avgt, thrpt, ss]
    measurement: {batch_size: 100}
    warmup: {batch_size: 100}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	var modes []string
	for _, run := range rep.Runs {
		modes = append(modes, run.Mode.String())
		if run.Failed() || run.Primary == nil || run.Primary.Count != 6 {
			t.Fatalf("%s: %s, want Cnt 6 (2 forks × 3 iterations)", run.Key, run.Error)
		}
		for _, unit := range []string{"B/op", "allocs/op", "MB/s", "widgets/op"} {
			if _, ok := run.SecondaryMetrics[unit]; !ok {
				t.Errorf("%s: no secondary metric %s", run.Key, unit)
			}
		}
		for _, f := range run.Forks {
			if f.PID == 0 || len(f.Iterations) != 4 {
				t.Errorf("%s fork %d: pid %d, %d iterations; want a process with 1 warmup + 3 measurement", run.Key, f.Fork, f.PID, len(f.Iterations))
			}
			for _, it := range f.Iterations {
				if run.Mode == "ss" && (it.Invocations != 100 || it.Ops != 1) {
					t.Errorf("ss: iteration of %d invocations and %v ops, want one batch of 100 as 1 op", it.Invocations, it.Ops)
				}
			}
		}
	}
	if !slices.Equal(modes, []string{"avgt", "thrpt", "ss"}) {
		t.Errorf("modes %v", modes)
	}
}

func TestRegisterTestingKeepsLoopBodiesAlive(t *testing.T) {
	// Iterations as long as the empty-loop baseline's (1 ms), so that a
	// busy machine disturbs both alike.
	spec := writeSpec(t, quick+`  - include: 'SqrtDropped$'
    measurement: {iterations: 8, time: 1ms}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	// DEAD_CODE compares medians, which a busy machine can push either
	// way; the fastest iteration and the fastest baseline iteration are
	// the least disturbed of each, since being preempted only ever adds
	// time. The dropped sqrt of benchspec's B costs what the empty loop
	// does (it was compiled away); testing.B.Loop's body is kept alive,
	// and is never flagged.
	ratio := map[string]float64{}
	for _, run := range rep.Runs {
		call, base := math.Inf(1), math.Inf(1)
		for _, f := range run.Forks {
			for _, b := range f.Timer.BaselineNs {
				base = min(base, float64(b))
			}
			for _, it := range f.Iterations {
				if it.Phase == "measurement" && it.Ops > 0 {
					call = min(call, float64(it.TimeNs)/float64(it.Ops))
				}
			}
		}
		ratio[run.Benchmark] = call / base
		if run.Benchmark == "gotest.SqrtDropped" {
			for _, d := range run.Diagnostics {
				if d.Code == "DEAD_CODE" {
					t.Errorf("gotest.SqrtDropped: DEAD_CODE (%s), want none: testing.B.Loop keeps its body alive", d.Message)
				}
			}
		}
	}
	t.Logf("fastest call / fastest empty-loop iteration: %v", ratio)
	// Under 2× the empty loop is DEAD_CODE's own threshold.
	if r, ok := ratio["native.SqrtDropped"]; !ok || !(r < 2) {
		t.Errorf("native.SqrtDropped: fastest call %.3g× the fastest empty loop, want under 2×: benchspec's B does not keep a dropped result alive (all ratios %v)", r, ratio)
	}
	if r, ok := ratio["gotest.SqrtDropped"]; !ok || !(r >= 2) {
		t.Errorf("gotest.SqrtDropped: fastest call %.3g× the fastest empty loop, want at least 2×: testing.B.Loop keeps the sqrt (all ratios %v)", r, ratio)
	}
}

func TestRegisterTestingRefusesSampleAndThreads(t *testing.T) {
	spec := writeSpec(t, quick+`  - include: '^gotest\.BN$'
    modes: [sample]
    threads: 2
`)
	r := suite(t, "validate", spec)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2; stderr:\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		spec + `:10:12: benchmarks[0].modes: sample mode is not available for go test benchmarks (func(*testing.B)) such as "gotest.BN"`,
		spec + `:11:14: benchmarks[0].threads: threads: 2 is not available for go test benchmarks`,
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr:\n%s\nwant it to contain\n%s", r.Stderr, want)
		}
	}
}

func TestRegisterTestingMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"nil":    func() { benchspec.RegisterTesting("gotest.nil", nil) },
		"params": func() { benchspec.RegisterTesting("gotest.params", func(*testing.B) {}, benchspec.Params{"n": {"1"}}) },
		"dup":    func() { benchspec.RegisterTesting("gotest.BN", func(*testing.B) {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: RegisterTesting did not panic", name)
				}
			}()
			f()
		}()
	}
}
