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
	"github.com/benchspec/benchspec/internal/testdriver"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

func testingAssignment(mode spec.Mode, warm, meas spec.Iterations, opi int) *protocol.Assignment {
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
	a := testingAssignment(spec.ModeAverageTime,
		spec.Iterations{Iterations: 1, Time: time.Millisecond, BatchSize: 4},
		spec.Iterations{Iterations: 2, Time: 2 * time.Millisecond, BatchSize: 4}, 2)
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
	one := spec.Iterations{Iterations: 2, Time: time.Second, BatchSize: 7}
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
			its, err := runTesting(t, testingAssignment(spec.ModeSingleShot, one, one, 3), body.fn)
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
	quick := spec.Iterations{Iterations: 1, Time: time.Millisecond, BatchSize: 1}
	tests := []struct {
		name string
		mode spec.Mode
		fn   func(*testing.B)
		want string
	}{
		{"fatal", spec.ModeAverageTime, func(b *testing.B) { b.Fatal("no input") }, "the benchmark failed"},
		{"early return", spec.ModeAverageTime, func(b *testing.B) { b.Loop() }, "the benchmark failed"},
		{"skip", spec.ModeAverageTime, func(b *testing.B) { b.Skip("not here") }, "skipped itself"}, // a *SkipError: the run is skipped
		{"panic", spec.ModeAverageTime, func(b *testing.B) { panic("boom") }, "panic: boom"},
		{"sample", spec.ModeSampleTime, func(b *testing.B) {}, "sample mode is not available"},
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
	quick := spec.Iterations{Iterations: 1, Time: time.Millisecond, BatchSize: 1}
	if _, err := runTesting(t, testingAssignment(spec.ModeSingleShot, quick, quick, 1), func(b *testing.B) {
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

// goTestOutput is what the driver in a test binary writes on its
// result descriptor for one warmup and two measurement iterations of one
// benchmark, with testing's own noise around the results.
const goTestOutput = "\x16procs\t8\n" + `goos: linux
goarch: amd64
cpu: Some CPU @ 2.00GHz
` + "\x16begin\tBenchmarkIndex\twarmup\t1\n" + `BenchmarkIndex
BenchmarkIndex-8   	 1000000	        12.50 ns/op	       0 B/op	       0 allocs/op
` + "\x16end\n\x16begin\tBenchmarkIndex\tmeasurement\t1\n" + `BenchmarkIndex-8   	 2000000	        10.00 ns/op	      16 B/op	       1 allocs/op	 100.00 MB/s	 3.000 hits/op
--- BENCH: BenchmarkIndex-8
    index_test.go:12: BenchmarkIndex-8 1 0.0001 ns/op
` + "\x16end\n\x16begin\tBenchmarkIndex\tmeasurement\t2\n" + `BenchmarkIndex-8   	 4000000	        11.00 ns/op	       0 B/op	       0 allocs/op
` + "\x16end\n\x16done\n"

func packageAssignment(mode spec.Mode, warm, meas int, batch int) *protocol.Assignment {
	a := testingAssignment(mode,
		spec.Iterations{Iterations: warm, Time: time.Second, BatchSize: batch},
		spec.Iterations{Iterations: meas, Time: time.Second, BatchSize: batch}, 2)
	a.Run.GoTest = &plan.GoTest{ImportPath: "strings", Func: "BenchmarkIndex", Name: "BenchmarkIndex", Binary: "strings.test", Driver: "TestBenchspecDriver_x"}
	return a
}

func TestReadResultsMapsEachCountToAnIteration(t *testing.T) {
	var its []protocol.Iteration
	n, err := readResults(strings.NewReader(goTestOutput), packageAssignment(spec.ModeAverageTime, 1, 2, 4), func(it *protocol.Iteration) error {
		its = append(its, *it)
		return nil
	})
	if err != nil || n != 3 {
		t.Fatalf("readResults = %d, %v; want 3, nil", n, err)
	}
	want := []protocol.Iteration{
		{Phase: "warmup", Index: 1, Ops: 1e6 * 2 / 4, TimeNs: 12.5e6, Invocations: 1e6,
			Metrics: map[string]float64{"B/op": 0, "allocs/op": 0}},
		{Phase: "measurement", Index: 1, Ops: 2e6 * 2 / 4, TimeNs: 20e6, Invocations: 2e6,
			Metrics: map[string]float64{"B/op": 16, "allocs/op": 1, "MB/s": 100, "hits/op": 3}},
		{Phase: "measurement", Index: 2, Ops: 4e6 * 2 / 4, TimeNs: 44e6, Invocations: 4e6,
			Metrics: map[string]float64{"B/op": 0, "allocs/op": 0}},
	}
	if diff := cmp.Diff(want, its); diff != "" {
		t.Errorf("iterations (-want +got):\n%s", diff)
	}
}

func TestReadResultsSingleShot(t *testing.T) {
	out := "\x16procs\t8\n\x16begin\tBenchmarkIndex\tmeasurement\t1\nBenchmarkIndex-8   \t 5\t  300.0 ns/op\n\x16end\n"
	var its []protocol.Iteration
	_, err := readResults(strings.NewReader(out), packageAssignment(spec.ModeSingleShot, 0, 1, 5), func(it *protocol.Iteration) error {
		its = append(its, *it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// ss: the batch of 5 is one op of ops_per_invocation (2) operations.
	want := []protocol.Iteration{{Phase: "measurement", Index: 1, Ops: 2, TimeNs: 1500, Invocations: 5, Metrics: map[string]float64{}}}
	if diff := cmp.Diff(want, its); diff != "" {
		t.Errorf("iterations (-want +got):\n%s", diff)
	}
}

// A result of another benchmark than the one the exact pattern selects
// cannot come from testing: it is refused, not counted.
func TestReadResultsRefusesOtherBenchmarks(t *testing.T) {
	out := "\x16procs\t8\n\x16begin\tBenchmarkIndex\tmeasurement\t1\nBenchmarkIndex/short-8   \t 5\t  300.0 ns/op\n\x16end\n"
	_, err := readResults(strings.NewReader(out), packageAssignment(spec.ModeAverageTime, 0, 1, 1), func(*protocol.Iteration) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "reported a result for BenchmarkIndex/short") {
		t.Fatalf("err = %v, want an error about the other benchmark's result", err)
	}
}

func TestReadResultsSkipAndFailure(t *testing.T) {
	head := "\x16procs\t2\n\x16begin\tBenchmarkIndex\tmeasurement\t1\n"
	tests := []struct{ name, out, want string }{
		{"skip", head + "--- SKIP: BenchmarkIndex\n    index_test.go:3: no input here\n\x16end\n", "skipped: index_test.go:3: no input here"},
		{"fail", head + "--- FAIL: BenchmarkIndex\n    index_test.go:4: broken\n\x16end\n", "BenchmarkIndex failed in measurement iteration 1:\n    index_test.go:4: broken"},
		{"nothing", head + "\x16end\n", "BenchmarkIndex did not run"},
		{"cut short", head, "ended inside BenchmarkIndex measurement iteration 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readResults(strings.NewReader(tt.out), packageAssignment(spec.ModeAverageTime, 0, 1, 1), func(*protocol.Iteration) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			var skip *SkipError
			if errors.As(err, &skip) != (tt.name == "skip") {
				t.Errorf("err = %#v: a SkipError only for the skip", err)
			}
		})
	}
}

func TestTestBinaryArgs(t *testing.T) {
	a := packageAssignment(spec.ModeSingleShot, 2, 3, 100)
	a.Run.Key = "Index:ss"
	a.Fork = 2
	a.ProfileDir = "/prof"
	a.Run.Settings.Profilers = []string{"gc", "cpu"}
	args, profiles := testBinaryArgs(a)
	want := []string{"-test.run=^TestBenchspecDriver_x$", "-test.v=true", "-test.count=1", "-test.paniconexit0", "-test.benchmem",
		"-test.cpuprofile=" + protocol.ProfileFile("/prof", "Index:ss", 2, "cpu")}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if cpu := profiles["cpu"]; !strings.HasPrefix(cpu, "/prof/Index_ss-") || !strings.HasSuffix(cpu, ".fork2.cpu.pprof") {
		t.Errorf("cpu profile %q, want /prof/Index_ss-<hash>.fork2.cpu.pprof", cpu)
	}
	if diff := cmp.Diff(map[string]string{"cpu": protocol.ProfileFile("/prof", "Index:ss", 2, "cpu")}, profiles); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
	// The driver runs each phase with its own benchtime: ss batches of
	// 100, here 2 warmup and 3 measurement iterations.
	wantJob := &testdriver.Job{
		Benchmarks: []testdriver.Bench{{Func: "BenchmarkIndex", Pattern: "^BenchmarkIndex$", Skip: "^BenchmarkIndex$/."}},
		Phases:     []testdriver.Phase{{Name: "warmup", Benchtime: "100x", Count: 2}, {Name: "measurement", Benchtime: "100x", Count: 3}},
	}
	if diff := cmp.Diff(wantJob, testJob(a)); diff != "" {
		t.Errorf("job (-want +got):\n%s", diff)
	}
	a.Run.Mode = spec.ModeThroughput
	a.Run.Settings.Warmup.Time = 200 * time.Millisecond
	a.Run.Settings.Measurement.Time = 250 * time.Millisecond
	a.Run.GoTest.Name = "BenchmarkIndex/size=8#01"
	wantJob = &testdriver.Job{
		Benchmarks: []testdriver.Bench{{Func: "BenchmarkIndex", Pattern: `^BenchmarkIndex$/^size=8#01$`, Skip: `^BenchmarkIndex$/^size=8#01$/.`}},
		Phases:     []testdriver.Phase{{Name: "warmup", Benchtime: "200ms", Count: 2}, {Name: "measurement", Benchtime: "250ms", Count: 3}},
	}
	if diff := cmp.Diff(wantJob, testJob(a)); diff != "" {
		t.Errorf("thrpt job (-want +got):\n%s", diff)
	}
}

// A result without ns/op (b.ReportMetric(0, "ns/op")) is an iteration
// without a time, with the benchmark's own metrics; a line with no value
// at all is no result.
func TestReadResultsWithoutTimePerOp(t *testing.T) {
	head := "\x16procs\t2\n\x16begin\tBenchmarkIndex\tmeasurement\t1\n"
	var its []protocol.Iteration
	_, err := readResults(strings.NewReader(head+"BenchmarkIndex-2   \t 100\t 42.00 widgets/op\n\x16end\n"), packageAssignment(spec.ModeAverageTime, 0, 1, 1), func(it *protocol.Iteration) error {
		its = append(its, *it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []protocol.Iteration{{Phase: "measurement", Index: 1, Ops: 100 * 2, Invocations: 100, NoTime: true, Metrics: map[string]float64{"widgets/op": 42}}}
	if d := cmp.Diff(want, its); d != "" {
		t.Errorf("iterations (-want +got):\n%s", d)
	}
	_, err = readResults(strings.NewReader(head+"BenchmarkIndex-2   \t 100\n\x16end\n"), packageAssignment(spec.ModeAverageTime, 0, 1, 1), func(*protocol.Iteration) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "BenchmarkIndex did not run") {
		t.Errorf("err = %v, want a line without values not counted", err)
	}
}
