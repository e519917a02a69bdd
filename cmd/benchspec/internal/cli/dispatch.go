package cli

import (
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/executor/gotest/testfork"
	"github.com/benchspec/benchspec/internal/worker"
)

// The benchspec program starts copies of itself: the guard of a batch
// (protocol.EnvGuard: it ends the forks if the batch dies), the fork of
// a package benchmark (protocol.EnvAssignment: it runs the package's
// test binary, executor/gotest/testfork), and the shielded start of a package's
// listing run (protocol.EnvExec: see executor.StartContained). Such a
// process serves that role and is no command line; ServeChild is the
// one place that decides.

// ServeChild serves the role of a process a batch started, and exits; it
// returns at once in a process that is a command line.
func ServeChild() { worker.ServeChild(nil, testfork.RunTestBinary, executor.Guard) }
