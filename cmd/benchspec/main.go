// Command benchspec is the standalone benchspec CLI: everything that needs
// no registered benchmark code — checking specs, rendering, comparing and
// merging reports, and running the go test benchmarks of packages.
// Running registered benchmarks is the job of a suite binary built with
// benchspec.Main.
//
// Usage:
//
//	benchspec <command> [flags] [arguments]
//
// Exit status: 0 all good; 1 a benchmark failed or a comparison found a
// regression; 2 bad usage, an invalid spec or input, or an output that
// cannot be written. Errors and progress go to stderr, machine output to
// stdout.
package main

import (
	"context"
	"io"
	"os"

	"github.com/benchspec/benchspec/internal/cli"
)

// Exit statuses shared by all commands, as the usage and docs/reference.md state.
const (
	exitOK    = cli.ExitOK
	exitFail  = cli.ExitFail
	exitUsage = cli.ExitUsage
)

// program is the command line. Adding a command is adding one line to
// its commands; main names it as the user ran it.
var program = cli.Program{
	Name: "benchspec",
	Commands: []cli.Command{
		{Name: "run", Args: "SPEC...", Summary: "run the go test benchmarks of the packages specs name", Run: runRun},
		{Name: "validate", Args: "SPEC...", Summary: "check spec files and report every error", Run: runValidate},
		{Name: "schema", Args: "[spec|result|history]", Summary: "print the JSON Schema of specs, of JSON results or of the history", Run: runSchema},
		{Name: "report", Args: "RESULT.json", Summary: "render a saved JSON report in another format", Run: runReport},
		{Name: "compare", Args: "BASE.json NEW.json", Summary: "compare two JSON reports and find regressions", Run: runCompare},
		{Name: "merge", Args: "A.json B.json...", Summary: "merge JSON reports of disjoint runs into one", Run: runMerge},
		{Name: "cache", Args: "[prune|clear]", Summary: "show or prune the cache of package test binaries", Run: runCache},
		{Name: "history", Args: "DIR...", Summary: "time series and change points of a results directory's batches", Run: runHistory},
	},
}

// Started by a batch as a fork (which runs a package's test binary) or
// as its guard, this binary serves that role: before main, so that such
// a process is never a command line.
func init() { cli.ServeChild(nil) }

func main() {
	program.Name = cli.ProgName()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args (without the program name) and returns
// the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return program.Run(args, stdout, stderr)
}

// runValidate checks specs as specs: cmd/benchspec has no registry, so
// what only a suite can check (that includes match its benchmarks) is
// the suite's validate's.
func runValidate(e *cli.Env, args []string) int {
	return cli.Validate(context.Background(), e, args, nil)
}
