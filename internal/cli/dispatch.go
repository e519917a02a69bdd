package cli

import (
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/worker"
)

// A benchmark binary — a suite, or cmd/benchspec for package benchmarks —
// starts copies of itself: each fork (protocol.EnvAssignment in its
// environment holds what to measure) and the guard of a batch
// (protocol.EnvGuard: it ends the forks if the batch dies), and the
// shielded start of a package's listing run (protocol.EnvExec: see
// executor.StartContained). Such a
// process serves that role and is no command line; ServeChild and
// IsChild are the one place that decides.
//
// Both only forward to package worker (worker.IsChild, worker.ServeChild)
// and are inlined into their callers: a fork then runs no code of this
// package, whose text it would otherwise read from the binary for these
// few lines alone (a page fault, about 30 µs on the 2-core AMD EPYC VM).

// IsChild reports whether this process was started by a batch as a fork
// or a guard.
func IsChild() bool { return worker.IsChild() }

// ServeChild serves the role of a process a batch started, and exits; it
// returns at once in a process that is a command line. lookup finds the
// registered benchmarks a fork can run (nil: none, a binary whose forks
// run only test binaries).
func ServeChild(lookup worker.BodyLookup) { worker.ServeChild(lookup, executor.Guard) }
