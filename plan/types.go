package plan

import (
	"time"

	"github.com/benchspec/benchspec/spec"
)

// Benchmark describes one registered benchmark as the plan needs it.
type Benchmark struct {
	Name string
	// Params are the declared parameters with their default values.
	Params map[string][]string
	// IntParams names the parameters declared as integers: a spec value
	// for them that is not an integer is an error at plan time.
	IntParams map[string]bool
	// Testing marks a go test benchmark, a func(*testing.B): registered
	// with benchspec.RegisterTesting, or found in a package (GoTest). It
	// runs in avgt, thrpt and ss mode on one goroutine only.
	Testing bool
	// Package is the package of the spec entries that select this
	// benchmark, as PackageKey names it; empty for registered benchmarks,
	// which only entries without `package:` select.
	Package string
	// GoTest locates a package benchmark in its test binary; nil for
	// registered benchmarks.
	GoTest *GoTest
}

// GoTest is a benchmark of a Go package — a benchmark function or one of
// its b.Run sub-benchmarks — run in the package's test binary (go test
// -c, with benchspec's driver) rather than in the suite binary.
type GoTest struct {
	ImportPath string `json:"import_path"`
	// Dir is the package's source directory: the test binary runs there,
	// as under go test, so that testdata/ is found.
	Dir string `json:"dir"`
	// Binary is the test binary's path.
	Binary string `json:"binary"`
	// Func is the top-level benchmark function, "BenchmarkDecode".
	Func string `json:"func"`
	// Name is the benchmark as go test prints it without its
	// -GOMAXPROCS suffix, "BenchmarkDecode/Digits/Huffman/1e4" (Func for
	// a benchmark without sub-benchmarks): what include and exclude
	// match, level by level, as go test -bench does. The benchmark's
	// plan name is Name without the "Benchmark" prefix (PackageName).
	Name string `json:"name"`
	// Driver is the test function of benchspec's driver that can call
	// Func (one per test package, internal or external).
	Driver string `json:"driver"`
	// Labels are the header lines the test binary printed before its
	// first result (goos, goarch, pkg, cpu), in order, as printed:
	// what `--format gobench` writes so that benchstat pairs its output
	// with go test's.
	Labels [][2]string `json:"labels,omitempty"`
}

// Plan is the ordered list of runs a batch will execute.
type Plan struct {
	Suite    string    // the first spec's name
	Specs    []SpecRef // every spec the plan was built from
	Runs     []Run
	Estimate time.Duration // expected wall time of the whole plan
	// Shard is set on the part of a plan that the function Shard
	// returns; nil for a whole plan.
	Shard *ShardInfo `json:",omitempty"`
}

// SpecRef identifies a spec file by path and content.
type SpecRef struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Run is one benchmark × params × mode with its settings. Each run is
// measured by Settings.WarmupForks + Settings.Forks fresh processes.
type Run struct {
	Index     int
	Key       string // stable identity: benchmark, params and mode
	Benchmark string
	Params    []Param // sorted by name
	Mode      spec.Mode
	Settings  spec.Settings
	Spec      string // path of the spec that selected the run
	Entry     int    // index of the entry in that spec
	Estimate  time.Duration
	// GoTest is set for a package benchmark: its forks run its test
	// binary instead of the suite binary.
	GoTest *GoTest `json:",omitempty"`
}

// ForkCount is the number of forks of the run, warmup forks included:
// forks: 0 runs once, in-process.
func (r *Run) ForkCount() int {
	if r.Settings.Forks == 0 {
		return 1
	}
	return r.Settings.WarmupForks + r.Settings.Forks
}

// Param is one parameter's value in a run.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}
