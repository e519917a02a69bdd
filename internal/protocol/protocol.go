// Package protocol is the plain data the executor (the parent) and the
// worker (the fork) exchange, and that the report, the diagnostics and the
// run journal read: the Assignment a fork gets, the Messages it sends
// back, and the ForkResult the parent assembles from them. It is a leaf:
// it imports only the plan (a Run is part of an Assignment) and, for
// sample mode's histograms, its hist subpackage.
package protocol

import "github.com/benchspec/benchspec/plan"

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

// Assignment is what one fork must do.
type Assignment struct {
	Run    plan.Run `json:"run"`
	Fork   int      `json:"fork"`
	Warmup bool     `json:"warmup"`
	// ProfileDir is where the fork writes the pprof profiles its run's
	// profilers ask for; empty: the profiles are not written.
	ProfileDir string `json:"profile_dir,omitempty"`
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
	Type      string             `json:"type"`
	PID       int                `json:"pid,omitempty"`
	Timer     *TimerCalibration  `json:"timer,omitempty"`
	Iteration *Iteration         `json:"iteration,omitempty"`
	Metrics   map[string]float64 `json:"metrics,omitempty"`
	Profiles  map[string]string  `json:"profiles,omitempty"`
	Error     string             `json:"error,omitempty"`
	Skip      string             `json:"skip,omitempty"`
}
