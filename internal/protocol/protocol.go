// Package protocol is the plain data the executor (the parent) and the
// worker (the fork) exchange, and that the report, the diagnostics and the
// run journal read: the Assignment a fork gets, the Messages it sends
// back, and the ForkResult the parent assembles from them. It is a leaf
// (it imports only its hist subpackage, for sample mode's histograms): a
// suite binary links it, the worker and the root package, and nothing of
// the parent's.
package protocol

import "strconv"

// The worker protocol. The parent re-executes the suite binary with
// EnvAssignment set to the JSON of an Assignment; the fork writes Messages
// as JSON lines to file descriptor ResultFD (an inherited pipe, so user
// code printing to stdout cannot corrupt them).
const (
	// EnvAssignment carries the fork's Assignment (JSON). Its presence is
	// what makes a suite binary act as a worker.
	EnvAssignment = "BENCHSPEC_FORK"
	// ResultFD is the fork's end of the result pipe.
	ResultFD = 3
	// EnvHost makes a suite binary the host of a batch's forks: 0 runs:
	// it reads their assignments, one JSON line each, on its standard
	// input and runs them one after the other in its one process.
	EnvHost = "BENCHSPEC_HOST"
	// EnvGuard, set in its environment, makes a suite binary the guard of
	// a batch (executor.Guard) instead of running a command. Nothing a
	// user sets; children of a fork must not inherit it, nor
	// EnvAssignment.
	EnvGuard = "BENCHSPEC_GUARD"
	// EnvBatch marks every fork of a batch, and so what the forks start,
	// which inherits it: the executor and the guard find the processes a
	// fork left behind outside its process group by it.
	EnvBatch = "BENCHSPEC_BATCH"
	// EnvExec makes a benchmark binary put the seccomp shield of a fork
	// on itself and exec its arguments (worker.ShieldedExec): how
	// executor.StartContained runs a package's code outside a fork.
	EnvExec = "BENCHSPEC_EXEC"
)

// RoleVars are the variables that give a process its role in a batch:
// a process must not pass them on to what it starts.
var RoleVars = []string{EnvAssignment, EnvHost, EnvGuard, EnvBatch, EnvExec, EnvList, EnvSuite, EnvHandoff, EnvProbe}

// Assignment is what one fork must do.
type Assignment struct {
	Run    Run  `json:"run"`
	Fork   int  `json:"fork"`
	Warmup bool `json:"warmup"`
	// ProfileDir is where the fork writes the pprof profiles its run's
	// profilers ask for; empty: the profiles are not written.
	ProfileDir string `json:"profile_dir,omitempty"`
	// Duet makes the fork wait, before each iteration, for a byte on its
	// standard input: the parent sends one when this fork and its
	// partner, a fork of the other build running at the same time, are
	// both ready, so that their iterations run in the same seconds. At
	// the input's end the fork goes on alone.
	Duet bool `json:"duet,omitempty"`
}

// Message types, in the order a healthy fork sends them.
const (
	MsgHello     = "hello"     // the fork started; carries Timer and PID
	MsgIteration = "iteration" // one iteration finished
	MsgDone      = "done"      // all iterations finished; carries Metrics
	MsgError     = "error"     // the benchmark failed; carries Error
	// MsgSkip ends a fork whose benchmark skipped itself (b.Skip) before
	// any iteration; carries Skip, the reason. The run is skipped, not
	// failed.
	MsgSkip = "skip"
)

// Message is one line on the result pipe.
type Message struct {
	Type  string            `json:"type"`
	PID   int               `json:"pid,omitempty"`
	Timer *TimerCalibration `json:"timer,omitempty"`
	// Duet, in a hello, says the fork waits for its partner before each
	// iteration (Assignment.Duet); a suite built before duets does not.
	Duet      bool               `json:"duet,omitempty"`
	Iteration *Iteration         `json:"iteration,omitempty"`
	Metrics   map[string]float64 `json:"metrics,omitempty"`
	Profiles  map[string]string  `json:"profiles,omitempty"`
	Error     string             `json:"error,omitempty"`
	Skip      string             `json:"skip,omitempty"`
}

// Version is the version of this protocol. The parent refuses a suite
// binary that lists another: a suite built against another benchspec
// than the program running it.
const Version = 3

// EnvList makes a suite binary write its Listing as JSON on stdout and
// exit: how the parent learns what the suite registered.
const EnvList = "BENCHSPEC_LIST"

// EnvSuite is set by a suite binary that hands its command line to the
// parent: the suite binary's path, which the parent runs the forks of.
const EnvSuite = "BENCHSPEC_SUITE"

// EnvHandoff is set with EnvSuite by a suite binary that hands over: its
// PID, which the benchspec program it execs keeps. The program takes
// EnvSuite only when EnvHandoff is its own PID, so that a
// BENCHSPEC_SUITE left in an environment is never taken for a handoff.
const EnvHandoff = "BENCHSPEC_HANDOFF"

// EnvProbe asks a program whether it is the benchspec program: the
// program writes ProbeAnswer on stdout and exits 0, a suite binary
// refuses. A suite binary probes the program before it hands over, so
// that $BENCHSPEC_PARENT naming the suite itself, or a program that is
// no benchspec program (/bin/true), fails with a message, not a loop or
// a silent exit 0.
const EnvProbe = "BENCHSPEC_PROBE"

// ProbeAnswer is the benchspec program's answer to EnvProbe: it names
// the protocol's version.
func ProbeAnswer() string { return "benchspec program, protocol " + strconv.Itoa(Version) + "\n" }

// Listing is a suite binary's registry.
type Listing struct {
	Version    int          `json:"version"`
	Benchmarks []Registered `json:"benchmarks"`
}

// Registered is one registered benchmark.
type Registered struct {
	Name string `json:"name"`
	// Params are the declared parameters with their default values.
	Params map[string][]string `json:"params,omitempty"`
	// IntParams names the parameters declared as integers.
	IntParams []string `json:"int_params,omitempty"`
	// Testing marks a func(*testing.B) (RegisterTesting).
	Testing bool `json:"testing,omitempty"`
	// Members are a group's members in declared order
	// (benchspec.RegisterGroup); nil for a benchmark.
	Members []string `json:"members,omitempty"`
}
