package main

import (
	"context"
	"io"
	"os"
	"syscall"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/executor/worker"
	"github.com/benchspec/benchspec/internal/cli"
	"github.com/benchspec/benchspec/internal/gotest"
)

// The run command runs specs whose entries name Go packages (`package:
// ./internal/codec`): existing go test benchmarks, with no suite binary.
// It is a suite's run command (internal/cli.Run) whose benchmarks are the
// packages' benchmark functions; each fork is this binary started as a
// worker, which runs the package's test binary (worker.RunTestBinary).
//
// Those roles are taken here, before main: started with the fork's
// assignment in its environment this binary is a worker, started as a
// batch's guard it is the guard, and in neither case a command line.
func init() {
	switch {
	case os.Getenv(executor.EnvAssignment) != "":
		os.Exit(worker.ServeBodies(nil))
	case os.Getenv(executor.EnvGuard) != "":
		os.Exit(executor.Guard())
	}
}

func runRun(args []string, stdout, stderr io.Writer) int {
	ctx, stop := cli.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, "benchspec run [flags] SPEC...", args, cli.Registry{
		Packages: new(gotest.Builder).Benchmarks,
		Formats:  extraFormats,
	}, stdout, stderr)
}
