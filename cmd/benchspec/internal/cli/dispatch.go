package cli

import (
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/executor/gotest"
	"github.com/benchspec/benchspec/internal/handoff"
	"github.com/benchspec/benchspec/internal/worker"
)

// The roles a benchspec program's process can have, decided here and
// nowhere else in the program: a process a batch started — the guard
// of a batch (executor.Guard), the fork of a package benchmark (its
// test binary, run by executor/gotest), a shielded exec (executor.StartContained)
// — serves that role through worker.ServeChild, the fork side's one
// dispatch, and is no command line. A command line is a person's, or a
// suite binary's that handed it over (handedSuite), which is then the
// suite of the spec commands.

// ServeChild serves the role of a process a batch started, and exits; it
// returns at once in a process that is a command line.
func ServeChild() { worker.ServeChild(nil, gotest.RunTestBinary, executor.Guard) }

// handedSuite is the suite binary that handed its command line to this
// program (handoff.Run), "" when none did.
func handedSuite() string { return handoff.HandedSuite() }
