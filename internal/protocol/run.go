package protocol

import (
	"encoding/json"
	"fmt"
	"time"
)

// Run is what a fork needs to know of its run: which body, with which
// parameters, in which mode, and how to time it. The parent's plan.Run
// carries the rest (forks, environment, diagnostics, the spec it came
// from); plan.Run.Fork makes this from it.
type Run struct {
	Index     int
	Key       string
	Benchmark string
	Params    []Param
	Mode      Mode
	Settings  Settings
	// GoTest is set for a package benchmark: the fork runs its test
	// binary instead of a registered body.
	GoTest *GoTest `json:",omitempty"`
	// Group is set for a group (benchspec.RegisterGroup), which Benchmark
	// names: its members in declared order, each with its threads. The
	// fork runs every member's threads at once, one shared state, and
	// reports each iteration's members in Iteration.Members, this order.
	Group []Member `json:",omitempty"`
}

// Member is one member of a group and the threads it runs on (JMH's
// @GroupThreads).
type Member struct {
	Name    string `json:"name"`
	Threads int    `json:"threads"`
}

// MemberNames are the names of a group's members, in order.
func MemberNames(ms []Member) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}

// Settings are the settings that change how a fork measures. spec.Settings
// embeds them, so a spec key of this kind is decoded once, into its field
// here, and reaches the fork as is (plan.Run.Fork). Each field's JSON
// name is its spec key.
type Settings struct {
	Threads           int      `json:"threads,omitempty"` // >= 1, or ThreadsMax
	Warmup            Phase    `json:"warmup"`
	Measurement       Phase    `json:"measurement"`
	OpsPerInvocation  int      `json:"ops_per_invocation"`
	GCBeforeIteration bool     `json:"gc_before_iteration"`
	Profilers         []string `json:"profilers"`
}

// Phase configures the warmup or the measurement iterations.
type Phase struct {
	Iterations int           `json:"iterations"`
	Time       time.Duration `json:"time"`
	BatchSize  int           `json:"batch_size"`
}

// phaseJSON is a Phase in JSON: its time a Go duration string ("100ms"),
// as a spec says it, in reports, plans and assignments alike.
type phaseJSON struct {
	Iterations int    `json:"iterations"`
	Time       string `json:"time"`
	BatchSize  int    `json:"batch_size"`
}

// MarshalJSON writes the phase as phaseJSON.
func (p Phase) MarshalJSON() ([]byte, error) {
	return json.Marshal(phaseJSON{p.Iterations, p.Time.String(), p.BatchSize})
}

// UnmarshalJSON reads what MarshalJSON writes; absent keys leave their
// field as it was.
func (p *Phase) UnmarshalJSON(data []byte) error {
	v := phaseJSON{p.Iterations, p.Time.String(), p.BatchSize}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	d, err := time.ParseDuration(v.Time)
	if err != nil {
		return fmt.Errorf("time: %w", err)
	}
	*p = Phase{v.Iterations, d, v.BatchSize}
	return nil
}

// ThreadsMax is Settings.Threads for `threads: max`: GOMAXPROCS of the
// fork.
const ThreadsMax = -1

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

// Param is one parameter's value in a run.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}
