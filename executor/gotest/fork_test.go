package gotest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/google/go-cmp/cmp"
)

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

func packageAssignment(mode protocol.Mode, warm, meas int, batch int) *protocol.Assignment {
	a := &protocol.Assignment{Run: protocol.Run{
		Benchmark: "fake", Mode: mode,
		Settings: protocol.Settings{
			Threads:          1,
			Warmup:           protocol.Phase{Iterations: warm, Time: time.Second, BatchSize: batch},
			Measurement:      protocol.Phase{Iterations: meas, Time: time.Second, BatchSize: batch},
			OpsPerInvocation: 2,
		},
	}}
	a.Run.GoTest = &protocol.GoTest{ImportPath: "strings", Func: "BenchmarkIndex", Name: "BenchmarkIndex", Binary: "strings.test", Driver: "TestBenchspecDriver_x"}
	return a
}

func TestReadResultsMapsEachCountToAnIteration(t *testing.T) {
	var its []protocol.Iteration
	n, err := readResults(strings.NewReader(goTestOutput), packageAssignment(protocol.ModeAverageTime, 1, 2, 4), func(it *protocol.Iteration) error {
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
	_, err := readResults(strings.NewReader(out), packageAssignment(protocol.ModeSingleShot, 0, 1, 5), func(it *protocol.Iteration) error {
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
	_, err := readResults(strings.NewReader(out), packageAssignment(protocol.ModeAverageTime, 0, 1, 1), func(*protocol.Iteration) error { return nil })
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
			_, err := readResults(strings.NewReader(tt.out), packageAssignment(protocol.ModeAverageTime, 0, 1, 1), func(*protocol.Iteration) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			var skip *worker.SkipError
			if errors.As(err, &skip) != (tt.name == "skip") {
				t.Errorf("err = %#v: a SkipError only for the skip", err)
			}
		})
	}
}

func TestTestBinaryArgs(t *testing.T) {
	a := packageAssignment(protocol.ModeSingleShot, 2, 3, 100)
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
	wantJob := &Job{
		Benchmarks: []Bench{{Func: "BenchmarkIndex", Pattern: "^BenchmarkIndex$", Skip: "^BenchmarkIndex$/."}},
		Phases:     []Phase{{Name: "warmup", Benchtime: "100x", Count: 2}, {Name: "measurement", Benchtime: "100x", Count: 3}},
	}
	if diff := cmp.Diff(wantJob, testJob(a)); diff != "" {
		t.Errorf("job (-want +got):\n%s", diff)
	}
	a.Run.Mode = protocol.ModeThroughput
	a.Run.Settings.Warmup.Time = 200 * time.Millisecond
	a.Run.Settings.Measurement.Time = 250 * time.Millisecond
	a.Run.GoTest.Name = "BenchmarkIndex/size=8#01"
	wantJob = &Job{
		Benchmarks: []Bench{{Func: "BenchmarkIndex", Pattern: `^BenchmarkIndex$/^size=8#01$`, Skip: `^BenchmarkIndex$/^size=8#01$/.`}},
		Phases:     []Phase{{Name: "warmup", Benchtime: "200ms", Count: 2}, {Name: "measurement", Benchtime: "250ms", Count: 3}},
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
	_, err := readResults(strings.NewReader(head+"BenchmarkIndex-2   \t 100\t 42.00 widgets/op\n\x16end\n"), packageAssignment(protocol.ModeAverageTime, 0, 1, 1), func(it *protocol.Iteration) error {
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
	_, err = readResults(strings.NewReader(head+"BenchmarkIndex-2   \t 100\n\x16end\n"), packageAssignment(protocol.ModeAverageTime, 0, 1, 1), func(*protocol.Iteration) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "BenchmarkIndex did not run") {
		t.Errorf("err = %v, want a line without values not counted", err)
	}
}
