package plan

import (
	"strings"
	"testing"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// testingRegistry has a registered native benchmark, a registered
// func(*testing.B) and two benchmarks of package strings.
var testingRegistry = []Benchmark{
	{Name: "Index"}, // a registered one that happens to share a name
	{Name: "adapter.Sqrt", Testing: true},
	{Name: "Index", Testing: true, Package: "strings", GoTest: &GoTest{ImportPath: "strings", Binary: "/c/strings.test", Func: "BenchmarkIndex", Name: "BenchmarkIndex"}},
	{Name: "IndexByte", Testing: true, Package: "strings", GoTest: &GoTest{ImportPath: "strings", Binary: "/c/strings.test", Func: "BenchmarkIndexByte", Name: "BenchmarkIndexByte"}},
}

func TestPackageEntriesSelectTheirPackageOnly(t *testing.T) {
	s := mustParse(t, `benchmarks:
  - package: strings
    include: '^BenchmarkIndex'
  - include: 'Index'
`)
	p, err := Build([]*spec.Spec{s}, testingRegistry)
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		Key, Benchmark, Func string
	}
	var got []run
	for _, r := range p.Runs {
		fn := ""
		if r.GoTest != nil {
			fn = r.GoTest.Func
		}
		got = append(got, run{r.Key, r.Benchmark, fn})
	}
	// Package benchmarks are named as go test and benchstat print them;
	// the registered Index is a run of its own.
	want := []run{
		{"Index:avgt", "Index", "BenchmarkIndex"},
		{"IndexByte:avgt", "IndexByte", "BenchmarkIndexByte"},
		{"Index:avgt#2", "Index", ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
}

func TestPackageEntryThatMatchesNothing(t *testing.T) {
	s := mustParse(t, `benchmarks:
  - package: strings
    include: '^Index'
  - package: bytes
    include: 'Index'
`)
	_, err := Build([]*spec.Spec{s}, testingRegistry)
	want := []string{
		// include matches the function names, like go test -bench.
		`s.yaml:5:14: include '^Index' matches no benchmark of package strings; closest: BenchmarkIndex, BenchmarkIndexByte`,
		`s.yaml:6:14: package "bytes": no benchmarks of it are known here;`,
	}
	errs := spec.Errors(err)
	if len(errs) != len(want) {
		t.Fatalf("errors:\n%v\nwant %d", err, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want prefix %q", i, errs[i], w)
		}
	}
}

func TestTestingBenchmarksRefuseWhatTheyCannotRun(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"sample mode and threads from the defaults", `defaults: {modes: [avgt, sample], threads: 4}
benchmarks:
  - include: '^adapter\.'
`, []string{
			`s.yaml:3:19: benchmarks[0].modes: sample mode is not available for go test benchmarks (func(*testing.B)) such as "adapter.Sqrt"`,
			`s.yaml:3:44: benchmarks[0].threads: threads: 4 is not available for go test benchmarks (func(*testing.B)) such as "adapter.Sqrt"`,
		}},
		{"threads: max in the entry", `benchmarks:
  - include: '^adapter\.'
    threads: max
`, []string{`s.yaml:5:14: benchmarks[0].threads: threads: max is not available`}},
		{"package: in-process, all modes", `benchmarks:
  - package: strings
    include: '^BenchmarkIndex$'
    modes: all
    forks: 0
    warmup: {time: 1s, batch_size: 10}
    measurement: {time: 10ms}
`, []string{
			`s.yaml:6:12: benchmarks[0].modes: sample mode is not available for package benchmarks such as BenchmarkIndex`,
			`s.yaml:7:12: benchmarks[0].forks: forks: 0 runs in-process, which package benchmarks such as BenchmarkIndex cannot`,
		}},
		// The driver in the test binary gives each phase its own
		// -test.benchtime: warmup and measurement may differ.
		{"package: unequal warmup and measurement", `benchmarks:
  - package: strings
    include: '^BenchmarkIndex$'
    modes: [avgt, ss]
    warmup: {time: 1s, batch_size: 10}
    measurement: {time: 10ms}
`, nil},
		{"no warmup, no check", `benchmarks:
  - package: strings
    include: '^BenchmarkIndex$'
    modes: [ss, thrpt]
    warmup: {iterations: 0, time: 1s}
    measurement: {time: 10ms}
`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build([]*spec.Spec{mustParse(t, tt.body)}, testingRegistry)
			errs := spec.Errors(err)
			if len(errs) != len(tt.want) {
				t.Fatalf("errors:\n%v\nwant %d: %q", err, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(errs[i].Error(), w) {
					t.Errorf("error %d =\n%s\nwant prefix\n%s", i, errs[i], w)
				}
			}
		})
	}
}

func TestNativeBenchmarksKeepEveryMode(t *testing.T) {
	s := mustParse(t, `benchmarks:
  - include: '^Index$'
    modes: all
    threads: 2
`)
	p, err := Build([]*spec.Spec{s}, testingRegistry)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 4 {
		t.Errorf("%d runs, want 4 (one per mode)", len(p.Runs))
	}
}
