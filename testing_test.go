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
	// Six iterations a fork: DEAD_CODE judges each fork by its least
	// disturbed iteration, and on a busy machine three can all be hit.
	spec := writeSpec(t, quick+`  - include: 'SqrtDropped$'
    measurement: {iterations: 6, time: 20ms}
`)
	// DEAD_CODE is a statistical verdict: on a busy machine a short run
	// may get TOO_FEW_SAMPLES or HIGH_VARIANCE instead. Up to three
	// batches: the dropped result must be flagged in one of them, and the
	// testing.B.Loop body in none.
	native := false
	for attempt := 0; attempt < 3 && !native; attempt++ {
		out := filepath.Join(t.TempDir(), "r.json")
		r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
		if r.Code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
		}
		rep, _ := readReport(t, out)
		codes := map[string][]string{}
		for _, run := range rep.Runs {
			for _, d := range run.Diagnostics {
				codes[run.Benchmark] = append(codes[run.Benchmark], d.Code)
			}
		}
		native = slices.Contains(codes["native.SqrtDropped"], "DEAD_CODE")
		if !native {
			t.Logf("batch %d: native.SqrtDropped diagnostics %v", attempt+1, codes["native.SqrtDropped"])
		}
		if slices.Contains(codes["gotest.SqrtDropped"], "DEAD_CODE") {
			t.Errorf("gotest.SqrtDropped: diagnostics %v, want no DEAD_CODE: testing.B.Loop keeps its body alive", codes["gotest.SqrtDropped"])
		}
	}
	if !native {
		t.Errorf("native.SqrtDropped: no DEAD_CODE in 3 batches, want it: benchspec's B does not keep a dropped result alive")
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
