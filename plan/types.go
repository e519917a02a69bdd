package plan

import (
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"

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
	// Build is the spec build (spec.Build's name) whose binary holds
	// this benchmark: only the entries of specs with that build select
	// it. "" for the suite as given, which the entries of specs without
	// builds select.
	Build string
	// Executable is the suite binary of Build that runs a registered
	// benchmark; "" for the batch's.
	Executable string
	// Members are a group's members in declared order
	// (benchspec.RegisterGroup); nil for a benchmark.
	Members []string
}

// GoTest locates a benchmark of a Go package in its test binary; the
// fork protocol defines it, since a package's fork needs it.
type GoTest = protocol.GoTest

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
	// Executable is the suite binary of this run's forks when it is not
	// the batch's (one build of a spec's builds, or of two in `benchspec
	// ab`); "" otherwise.
	Executable string `json:",omitempty"`
	// ProfileDir, when set, is where this run's forks write their
	// profiles instead of the batch's directory (ab: one a side).
	ProfileDir string `json:",omitempty"`
	// Build is the name of the spec build the run measures, "" when its
	// spec has no builds. Params hold it too, as the parameter "build"
	// (BuildParam), so that keys and reports tell the builds apart; the
	// fork is not told.
	Build string `json:",omitempty"`
	// Group is set for a group's run: its members in declared order,
	// each with its threads (the entry's group_threads, 1 for a member
	// it leaves out); Settings.Threads is their sum.
	Group []protocol.Member `json:",omitempty"`
	// Member is set on a member's part of a group's run (MemberRun):
	// the report's row of the member, never a run the executor runs.
	Member string `json:",omitempty"`
}

// ForkCount is the number of forks of the run, warmup forks included:
// forks: 0 runs once, in-process.
func (r *Run) ForkCount() int {
	if r.Settings.Forks == 0 {
		return 1
	}
	return r.Settings.WarmupForks + r.Settings.Forks
}

// MemberRun is member i's row of a group's run r: the run as the report
// shows the member, named "group:member" (JMH's naming), on the member's
// threads. The executor never runs it; the group's forks measure it.
func (r *Run) MemberRun(i int) Run {
	m := *r
	m.Member = r.Group[i].Name
	m.Benchmark = r.Benchmark + ":" + m.Member
	m.Settings = r.Settings.Clone()
	m.Settings.Threads = r.Group[i].Threads
	// A group's key repeated in the plan has its #n (Build): its
	// members' rows keep it, or they would share the first's keys.
	m.Key = key(&m)
	if n, ok := strings.CutPrefix(r.Key, key(r)); ok {
		m.Key += n
	}
	return m
}

// Param is one parameter's value in a run.
type Param = protocol.Param

// Fork is what a fork of r needs to know of it (protocol.Run).
func (r *Run) Fork() protocol.Run {
	return protocol.Run{
		Index:     r.Index,
		Key:       r.Key,
		Benchmark: r.Benchmark,
		Params:    r.benchmarkParams(),
		Mode:      r.Mode,
		Settings:  r.Settings.Settings,
		GoTest:    r.GoTest,
		Group:     r.Group,
	}
}
