// Command benchspec is the benchspec program: it reads specs, validates
// and plans them, runs the batch's forks — a suite binary's registered
// benchmarks (--suite), the go test benchmarks of the packages specs
// name — and renders, compares, merges and follows the reports.
//
// In a module: go get -tool github.com/benchspec/benchspec/cmd/benchspec,
// then go tool benchspec. A suite binary run by hand passes its command
// line here (benchspec.Main).
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
	"syscall"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
)

// Exit statuses shared by all commands, as the usage and docs/reference.md state.
const (
	exitOK    = cli.ExitOK
	exitFail  = cli.ExitFail
	exitUsage = cli.ExitUsage
)

// commands are the commands that read no spec; main adds those that do
// (cli.SpecCommands).
var commands = []cli.Command{
	{Name: "schema", Args: "[spec|result|history|comparison|ab]", Summary: "print the JSON Schema of specs, JSON results, the history, compare or ab", Run: runSchema},
	{Name: "report", Args: "RESULT.json", Summary: "render a saved JSON report in another format", Run: runReport},
	{Name: "compare", Args: "BASE.json NEW.json", Summary: "compare two JSON reports and find regressions", Run: runCompare},
	{Name: "merge", Args: "A.json B.json...", Summary: "merge JSON reports of disjoint runs into one", Run: runMerge},
	{Name: "cache", Args: "[prune|clear]", Summary: "show or prune the cache of built test and suite binaries", Run: runCache},
	{Name: "history", Args: "DIR...", Summary: "time series and change points of a results directory's batches", Run: runHistory},
}

// Started by a batch as its guard, as the fork of a package benchmark or
// as a shielded exec, this binary serves that role: before main, so that
// such a process is never a command line.
func init() { cli.ServeChild() }

// progName is the program's name in its messages: as it was run (a
// suite binary that handed its command line over keeps its own name).
var progName = "benchspec"

func main() {
	progName = cli.ProgName()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args (without the program name), SIGINT and
// SIGTERM interrupting a run, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := cli.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := cli.Program{
		Name:     progName,
		Commands: append(cli.SpecCommands(ctx, registry()), commands...),
		Footer:   cli.Footer,
	}
	return p.Run(args, stdout, stderr)
}

// registry is what the spec commands run besides a suite's benchmarks:
// the packages' go test benchmarks, and the html format.
func registry() cli.Registry {
	reg := cli.Builds()
	reg.Formats = formats()
	return reg
}
