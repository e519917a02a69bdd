package main

import (
	"context"
	"os"
	"syscall"

	"github.com/benchspec/benchspec/internal/cli"
)

// The run command runs specs whose entries name Go packages (`package:
// ./internal/codec`): existing go test benchmarks, with no suite binary.
// It is a suite's run command (internal/cli.Run) whose benchmarks are the
// packages' benchmark functions; each fork is this binary started as a
// worker (see init in main.go), which runs the package's test binary.
func runRun(e *cli.Env, args []string) int {
	ctx, stop := cli.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, e, args, cli.Registry{
		Packages: cli.PackageBenchmarks(),
		Formats:  extraFormats,
	})
}
