package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchfmt"

	"github.com/benchspec/benchspec/report"
)

// These tests run the benchmarks of executor/gotest/testdata/subbench,
// which has what real packages have: b.Run sub-benchmarks with names go
// test rewrites and numbers, skips, printing benchmarks.

func subbenchSpec(t *testing.T, entry string) string {
	t.Helper()
	dir, err := filepath.Abs("../../executor/gotest/testdata/subbench")
	if err != nil {
		t.Fatal(err)
	}
	return writeRunSpec(t, `version: 1
name: subbench
defaults:
  forks: 1
  warmup:      {iterations: 1, time: 5ms}
  measurement: {iterations: 2, time: 5ms}
  timeout: 2m
benchmarks:
  - package: `+dir+`
`+entry)
}

// runSubbench runs an entry of subbench and returns the exit status,
// the report and the JSON report's path.
func runSubbench(t *testing.T, entry string) (int, *report.Report, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	status, _, stderr := runCmd(t, "run", allowOutside, subbenchSpec(t, entry), "--format", "json", "--out", out, "--quiet")
	if status == exitUsage {
		t.Fatalf("run = 2; stderr:\n%s", stderr)
	}
	return status, readFixture(t, out), out
}

func runNames(rep *report.Report) []string {
	var names []string
	for _, r := range rep.Runs {
		names = append(names, r.Benchmark)
	}
	sort.Strings(names)
	return names
}

// Every result line go test prints is a run, named as go test prints it
// without "Benchmark" and -GOMAXPROCS: rewritten spaces, #NN numbers, an
// empty name (#00), nested levels.
func TestRunSubBenchmarksAreRunsNamedAsGoTestPrintsThem(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	_, rep, _ := runSubbench(t, "    include: '^Benchmark(Sum|Nested)$'\n")
	want := []string{
		"Nested/a/1", "Nested/a/2", "Nested/b/1", "Nested/b/2",
		"Sum/#00", "Sum/odd_name_(x.y)", "Sum/size=64", "Sum/size=8", "Sum/size=8#01",
	}
	if d := cmp.Diff(want, runNames(rep)); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
	for _, r := range rep.Runs {
		if r.Status != report.StatusOK || r.Primary == nil || r.Primary.Count != 2 {
			t.Errorf("%s: status %s (%s), want ok with 2 measurements", r.Benchmark, r.Status, r.Error)
		}
	}
}

// include and exclude follow go test -bench and -skip, level by level.
func TestRunSelectsSubBenchmarksLikeGoTestBench(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	tests := []struct {
		entry string
		want  []string
	}{
		// An exact per-level pattern selects exactly one run; its
		// metacharacters quoted as go test needs them.
		{"    include: '^BenchmarkSum$/^size=8#01$'\n", []string{"Sum/size=8#01"}},
		{"    include: '^BenchmarkSum$/^odd_name_\\(x\\.y\\)$'\n", []string{"Sum/odd_name_(x.y)"}},
		// Unanchored per level; fewer levels select all deeper ones.
		{"    include: 'Nested/b'\n", []string{"Nested/b/1", "Nested/b/2"}},
		// '/' inside parentheses does not split; '|' outside does.
		{"    include: 'Nested/(a|b)/2'\n", []string{"Nested/a/2", "Nested/b/2"}},
		{"    include: 'Nested/a/1|Sum/size=64'\n", []string{"Nested/a/1", "Sum/size=64"}},
		// exclude is go test -skip: whole matches only.
		{"    include: 'Sum'\n    exclude: 'Sum/size'\n", []string{"Sum/#00", "Sum/odd_name_(x.y)"}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.entry), func(t *testing.T) {
			_, rep, _ := runSubbench(t, tt.entry)
			if d := cmp.Diff(tt.want, runNames(rep)); d != "" {
				t.Errorf("runs (-want +got):\n%s", d)
			}
		})
	}
	// An include that selects nothing names the closest names.
	status, _, stderr := runCmd(t, "run", allowOutside, subbenchSpec(t, "    include: '^BenchmarkSum$/^size=9$'\n"), "--quiet")
	if status != exitUsage || !strings.Contains(stderr, `include '^BenchmarkSum$/^size=9$' matches no benchmark of package`) || !strings.Contains(stderr, "closest: BenchmarkSum/size=8") {
		t.Errorf("run = %d, stderr:\n%s\nwant 2 and the closest names", status, stderr)
	}
}

// b.Skip is a skipped run with go test's reason, in every format, and
// not a failure: the batch exits 0.
func TestRunSkipsAreSkippedNotFailed(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	status, rep, _ := runSubbench(t, "    include: '^Benchmark(SkipAll|SkipTop|Nested)$'\n")
	if status != exitOK {
		t.Errorf("run = %d, want 0 (skips are not failures)", status)
	}
	reasons := map[string]string{}
	for _, r := range rep.Runs {
		if r.Skipped() {
			reasons[r.Benchmark] = r.SkipReason
		}
	}
	want := map[string]string{
		"SkipAll/needs-gpu": "subbench_test.go:57: no GPU here",
		"SkipTop":           "subbench_test.go:63: set SUBBENCH_RUN_SKIPTOP to run it",
	}
	if d := cmp.Diff(want, reasons); d != "" {
		t.Errorf("skipped runs and reasons (-want +got):\n%s", d)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	status, _, _ = runCmd(t, "run", allowOutside, subbenchSpec(t, "    include: '^BenchmarkSkipAll$'\n"), "--format", "json", "--out", out, "--quiet")
	if status != exitOK {
		t.Errorf("a batch of skips only: run = %d, want 0", status)
	}
	for _, format := range []string{"text", "markdown", "csv", "gobench", "html"} {
		status, text, stderr := runCmd(t, "report", out, "--format", format)
		if status != exitOK || !strings.Contains(text, "no GPU here") || !strings.Contains(strings.ToLower(text), "skip") {
			t.Errorf("report --format %s = %d (%s):\n%s\nwant the skip and its reason", format, status, stderr, text)
		}
	}
}

// A benchmark that prints result-like lines to stdout (and b.Log) on
// every call cannot change a number: results come from the driver's
// descriptor only.
func TestRunPrintingBenchmarkCannotForgeResults(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	_, rep, _ := runSubbench(t, "    include: '^BenchmarkPrints$'\n")
	if len(rep.Runs) != 1 || rep.Runs[0].Status != report.StatusOK {
		t.Fatalf("runs %+v, want Prints ok", rep.Runs)
	}
	r := rep.Runs[0]
	for _, f := range r.Forks {
		if len(f.Iterations) != 3 {
			t.Errorf("fork %d: %d iterations, want 1 warmup + 2 measurement", f.Fork, len(f.Iterations))
		}
		for _, it := range f.Iterations {
			// The forged lines claim b.N = 1 at 0.0001 ns/op; a 5 ms
			// iteration of a ns-scale loop runs many more.
			if it.Invocations <= 1 || float64(it.Score) == 0.0001 {
				t.Errorf("fork %d %s %d: %d invocations, score %v: a printed line was counted", f.Fork, it.Phase, it.Index, it.Invocations, it.Score)
			}
		}
	}
}

// A result whose name is a prefix of another result's (b.Run("a") beside
// b.Run("a/parallel")) is a run of its own, as go test prints both, and
// its forks run it alone.
func TestRunResultNamedAsAPrefixOfAnother(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	_, rep, _ := runSubbench(t, "    include: '^BenchmarkSlashes$'\n")
	if d := cmp.Diff([]string{"Slashes/a", "Slashes/a/parallel"}, runNames(rep)); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
	for _, r := range rep.Runs {
		if r.Status != report.StatusOK {
			t.Errorf("%s: %s %s, want ok", r.Benchmark, r.Status, r.Error)
		}
	}
}

// Each iteration is one run of the benchmark at its b.N, and nothing runs
// after the job: the test binary's own benchmark pass (testing.M.Run runs
// what -test.bench selects after the tests) finds the driver's flags
// reset, so a fork does not pay, nor run the benchmark's side effects
// for, one more hidden iteration.
func TestRunEachIterationRunsTheBenchmarkOnce(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	calls := filepath.Join(t.TempDir(), "calls")
	_, rep, _ := runSubbench(t, `    include: '^BenchmarkCalls$'
    modes: [ss]
    warmup:      {iterations: 1, batch_size: 3}
    measurement: {iterations: 2, batch_size: 3}
    env: {SUBBENCH_CALLS: '`+calls+`'}
`)
	if len(rep.Runs) != 1 || rep.Runs[0].Status != report.StatusOK {
		t.Fatalf("runs %+v, want Calls ok", rep.Runs)
	}
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	batches := 0
	for _, n := range strings.Fields(string(data)) {
		if n == "3" {
			batches++
		}
	}
	// testing calls the function with b.N = 1 first, then with the
	// batch: one b.N = 3 call per warmup and measurement iteration.
	if batches != 3 {
		t.Errorf("the benchmark ran %d times with b.N = 3, want 3 (1 warmup + 2 measurement iterations); b.N of every call: %q", batches, data)
	}
}

// warmup and measurement run with their own times in one process: in ss
// mode each iteration runs exactly its phase's batch.
func TestRunWarmupAndMeasurementTimesDiffer(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	_, rep, _ := runSubbench(t, `    include: '^BenchmarkNested$/^a$/^1$'
    modes: [ss, avgt]
    warmup:      {iterations: 2, time: 40ms, batch_size: 7}
    measurement: {iterations: 3, time: 4ms, batch_size: 3}
`)
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs, want ss and avgt", len(rep.Runs))
	}
	for _, r := range rep.Runs {
		if r.Status != report.StatusOK || len(r.Forks) != 1 {
			t.Fatalf("%s %s: %s %s", r.Benchmark, r.Mode, r.Status, r.Error)
		}
		for _, it := range r.Forks[0].Iterations {
			switch {
			case r.Mode == "ss" && it.Phase == "warmup" && it.Invocations != 7,
				r.Mode == "ss" && it.Phase == "measurement" && it.Invocations != 3:
				t.Errorf("ss %s %d: %d invocations, want the phase's batch size", it.Phase, it.Index, it.Invocations)
			}
		}
		if r.Mode == "avgt" {
			// go test ramps b.N until the iteration lasts its phase's time.
			for _, it := range r.Forks[0].Iterations {
				min := 4e6
				if it.Phase == "warmup" {
					min = 40e6
				}
				if got := float64(it.TimeNs); got < min*0.999 {
					t.Errorf("avgt %s %d: %.0f ns timed, want at least the phase's %.0f", it.Phase, it.Index, got, min)
				}
			}
		}
	}
}

// --format gobench writes the test binary's own header and go test's
// names, so benchstat pairs the file with `go test -bench` output row by
// row: the configuration and the full names are what it pairs by.
func TestGoBenchPairsWithGoTestOutput(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	_, _, out := runSubbench(t, "    include: '^BenchmarkSum$/^size='\n")
	status, ours, stderr := runCmd(t, "report", out, "--format", "gobench")
	if status != exitOK {
		t.Fatalf("report = %d: %s", status, stderr)
	}
	dir, _ := filepath.Abs("../../executor/gotest/testdata/subbench")
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkSum$/^size=", "-benchtime", "1x", ".")
	cmd.Dir = dir
	theirs, err := cmd.Output()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, theirs)
	}
	type key struct{ Config, Name string }
	keys := func(text string) []key {
		var out []key
		r := benchfmt.NewReader(strings.NewReader(text), "x")
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				var cfg []string
				for _, c := range res.Config {
					cfg = append(cfg, c.Key+"="+string(c.Value))
				}
				k := key{Config: strings.Join(cfg, ";"), Name: string(res.Name)}
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	want, got := keys(string(theirs)), keys(ours)
	if len(want) != 3 {
		t.Fatalf("go test printed %d results, want 3:\n%s", len(want), theirs)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("configuration and names (-go test +benchspec):\n%s\ngo test:\n%s\nbenchspec:\n%s", d, theirs, ours)
	}
}

// b.ReportMetric(0, "ns/op") removes the time per op, which go test
// accepts: the run is ok, with the benchmark's own metrics only, in
// every format.
func TestRunCustomMetricsOnly(t *testing.T) {
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	status, rep, out := runSubbench(t, "    include: '^BenchmarkCustomOnly$'\n")
	if status != exitOK || len(rep.Runs) != 1 {
		t.Fatalf("run = %d with %d runs, want 0 and one", status, len(rep.Runs))
	}
	r := rep.Runs[0]
	if r.Status != report.StatusOK || r.Primary != nil || !r.NoTime() {
		t.Fatalf("run %s: status %s (%s), primary %v; want ok without a primary metric", r.Benchmark, r.Status, r.Error, r.Primary)
	}
	if m, ok := r.SecondaryMetrics["widgets/op"]; !ok || float64(m.Score) != 42 || m.Count != 2 {
		t.Errorf("widgets/op = %+v, want 42 over 2 iterations", m)
	}
	_, text, _ := runCmd(t, "report", out, "--format", "text")
	if !strings.Contains(text, "NO TIME") || !strings.Contains(text, "CustomOnly:widgets/op") {
		t.Errorf("text report:\n%s\nwant NO TIME and the widgets/op row", text)
	}
	_, gobench, _ := runCmd(t, "report", out, "--format", "gobench")
	n := 0
	br := benchfmt.NewReader(strings.NewReader(gobench), "gobench")
	for br.Scan() {
		if res, ok := br.Result().(*benchfmt.Result); ok {
			n++
			if _, ok := res.Value("sec/op"); ok {
				t.Errorf("gobench line %s has a time per op", res.Name)
			}
			if v, ok := res.Value("widgets/op"); !ok || v != 42 {
				t.Errorf("gobench line %s: widgets/op %v, want 42", res.Name, v)
			}
		}
	}
	if n != 2 {
		t.Errorf("gobench has %d result lines, want 2:\n%s", n, gobench)
	}
}
