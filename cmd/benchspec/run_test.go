package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// These tests run the standard library's own strings benchmarks: the
// test binary of package strings is built once (then cached by Go's
// build cache), and each fork is this test binary started as a worker
// (see run.go's init), which runs the strings test binary. They run go
// and real forks, so they skip under -short (writeRunSpec skips them).

// allowOutside lets a spec in a temporary directory, in no module, name
// packages of this repository by absolute path.
const allowOutside = "--allow-packages-outside-module"

func writeRunSpec(t *testing.T, body string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end to end (go test -c and real forks): runs without -short")
	}
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunPackageBenchmarksFullReport(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	spec := writeRunSpec(t, `version: 1
name: strings
defaults:
  forks: 3
  warmup:      {iterations: 1, time: 10ms}
  measurement: {iterations: 2, time: 10ms}
  timeout: 1m
benchmarks:
  - package: strings
    include: '^BenchmarkIndex(Byte)?$'
`)
	out := filepath.Join(t.TempDir(), "r.json")
	status, _, stderr := runCmd(t, "run", spec, "--format", "json", "--out", out, "--quiet")
	if status != exitOK {
		t.Fatalf("run = %d; stderr:\n%s", status, stderr)
	}
	rep := readFixture(t, out)
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs, want Index and IndexByte", len(rep.Runs))
	}
	for i, name := range []string{"Index", "IndexByte"} {
		r := rep.Runs[i]
		if r.Benchmark != name || r.Failed() || r.Primary == nil {
			t.Fatalf("run %d = %s (%s), want %s measured", i, r.Benchmark, r.Error, name)
		}
		p := r.Primary
		if p.Count != 6 || !p.Score.Valid() || p.Score <= 0 || !p.ScoreError.Valid() || p.ScoreUnit != "ns/op" {
			t.Errorf("%s: primary %+v, want a score ± error in ns/op over Cnt 6", name, p)
		}
		if len(p.RawData) != 3 || len(p.RawData[0]) != 2 {
			t.Errorf("%s: raw data %v, want 3 forks × 2 iterations", name, p.RawData)
		}
		for _, unit := range []string{"B/op", "allocs/op"} {
			if _, ok := r.SecondaryMetrics[unit]; !ok {
				t.Errorf("%s: no secondary metric %s", name, unit)
			}
		}
		for _, f := range r.Forks {
			// The warmup iteration is in the raw data, out of the score.
			if f.PID == 0 || len(f.Iterations) != 3 || f.Iterations[0].Phase != "warmup" || f.Timer.BaselineNs == nil {
				t.Errorf("%s fork %d: pid %d, %d iterations, timer %+v", name, f.Fork, f.PID, len(f.Iterations), f.Timer)
			}
		}
	}

	// Go benchmark format, for benchstat: named as go test names them,
	// one result per measured iteration.
	status, gobench, stderr := runCmd(t, "report", out, "--format", "gobench")
	if status != exitOK {
		t.Fatalf("report = %d; stderr:\n%s", status, stderr)
	}
	counts := map[string]int{}
	r := benchfmt.NewReader(strings.NewReader(gobench), "gobench")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			counts[string(res.Name.Base())]++
			if _, ok := res.Value("sec/op"); !ok {
				t.Errorf("result %s has no time per op", res.Name)
			}
		}
	}
	if counts["Index"] != 6 || counts["IndexByte"] != 6 {
		t.Errorf("gobench results per name = %v, want 6 each:\n%s", counts, gobench)
	}
}

func TestRunPackageErrorsExit2(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	testdata, err := filepath.Abs("../../executor/gotest/testdata")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, pkg string
		want      []string
	}{
		{"bad import path", "example.invalid/nope", []string{`:7:14: benchmarks[0].package: package "example.invalid/nope": go list failed:`}},
		{"bad directory", "./no/such/package", []string{`:7:14: benchmarks[0].package: package directory /`, `/no/such/package does not exist`}},
		{"no benchmarks", filepath.Join(testdata, "nobench"), []string{
			":7:14: benchmarks[0].package: package github.com/benchspec/benchspec/executor/gotest/testdata/nobench has no benchmarks"}},
		{"build failure", filepath.Join(testdata, "broken"), []string{
			":7:14: benchmarks[0].package: building the test binary of github.com/benchspec/benchspec/executor/gotest/testdata/broken failed:",
			`cannot use "not a number"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := writeRunSpec(t, `version: 1
name: bad
defaults:
  forks: 1
  measurement: {iterations: 1, time: 10ms}
benchmarks:
  - package: `+tt.pkg+`
    include: Benchmark
`)
			status, stdout, stderr := runCmd(t, "run", allowOutside, spec, "--quiet")
			if status != exitUsage || stdout != "" {
				t.Errorf("run = %d, stdout %q; want 2 and nothing", status, stdout)
			}
			for _, w := range append(tt.want, "1 file, 1 error") {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr:\n%s\nwant it to contain %q", stderr, w)
				}
			}
		})
	}
}

func TestRunRefusesSampleModeWithPosition(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	spec := writeRunSpec(t, `version: 1
name: bad
benchmarks:
  - package: strings
    include: '^BenchmarkIndex$'
    modes: [avgt, sample]
`)
	status, _, stderr := runCmd(t, "run", spec)
	want := spec + ":6:12: benchmarks[0].modes: sample mode is not available for package benchmarks such as BenchmarkIndex"
	if status != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("run = %d, stderr:\n%s\nwant 2 and %q", status, stderr, want)
	}
}

func TestRunPackageFailuresFailOnlyTheirRun(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	faulty, err := filepath.Abs("../../executor/gotest/testdata/faulty")
	if err != nil {
		t.Fatal(err)
	}
	spec := writeRunSpec(t, `version: 1
name: faulty
defaults:
  forks: 1
  warmup:      {iterations: 1, time: 10ms}
  measurement: {iterations: 1, time: 10ms}
  timeout: 5s # the hang's, generous for the others on a busy machine
benchmarks:
  - package: `+faulty+`
    include: .
`)
	out := filepath.Join(t.TempDir(), "r.json")
	status, _, stderr := runCmd(t, "run", allowOutside, spec, "--format", "json", "--out", out, "--quiet")
	if status != exitFail {
		t.Fatalf("run = %d, want 1; stderr:\n%s", status, stderr)
	}
	rep := readFixture(t, out)
	want := map[string][]string{
		// The test binary's own output, b.Fatal's message included, is
		// the tail of the fork's output.
		"Fail": {"BenchmarkFail failed in warmup iteration 1:", "no input file: testdata/input.bin"},
		// Killed with its process group after the per-iteration timeout,
		// with the test binary's goroutine dump.
		"Hang": {"timed out after 5s in warmup iteration 1", "faulty.BenchmarkHang"},
		"OK":   nil,
		// A sub-benchmark is a run of its own, named as go test prints
		// it without the -GOMAXPROCS suffix.
		"Sub/small": nil,
	}
	for _, r := range rep.Runs {
		w, ok := want[r.Benchmark]
		if !ok {
			t.Errorf("unexpected run %s", r.Benchmark)
			continue
		}
		if w == nil {
			if r.Failed() {
				t.Errorf("%s failed: %s", r.Benchmark, r.Error)
			}
			continue
		}
		got := r.Error + "\n" + r.StderrTail
		for _, s := range w {
			if !strings.Contains(got, s) {
				t.Errorf("%s: error and output\n%s\nwant them to contain %q", r.Benchmark, got, s)
			}
		}
	}
}
