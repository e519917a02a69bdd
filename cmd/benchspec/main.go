// Command benchspec is the standalone benchspec CLI: everything that needs
// no registered benchmark code. Running benchmarks is the job of a suite
// binary built with benchspec.Main.
//
// Usage:
//
//	benchspec <command> [flags] [arguments]
//
// Exit status: 0 all good; 1 a benchmark failed or a comparison found a
// regression; 2 bad usage or an invalid spec. Errors and progress go to
// stderr, machine output to stdout.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit statuses shared by all commands, as the usage and the README state.
const (
	exitOK    = 0
	exitFail  = 1 // a benchmark failed or a comparison found a regression
	exitUsage = 2 // bad usage or an invalid spec
)

// command is one sub-command. Adding a command is adding one line to
// commands.
type command struct {
	name    string
	summary string // one line for the top-level usage
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the sub-commands in the order the usage shows them.
var commands = []command{
	{"run", "run the go test benchmarks of the packages specs name", runRun},
	{"validate", "check spec files and report every error", runValidate},
	{"schema", "print the JSON Schema of specs or of JSON results", runSchema},
	{"report", "render a saved JSON report in another format", runReport},
	{"compare", "compare two JSON reports and find regressions", runCompare},
	{"merge", "merge JSON reports of disjoint runs into one", runMerge},
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run runs the command line args (without the program name) and returns
// the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && name == "help" {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "benchspec: unknown command %q\n\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: benchspec <command> [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'benchspec <command> --help' for a command's flags.\n")
}

// newFlags returns the flag set of a command. synopsis is the usage line
// after "benchspec ", help the paragraph that explains the command.
func newFlags(name, synopsis, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: benchspec %s\n\n%s\n", synopsis, help)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(fs.Output(), "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses a command's arguments and returns the positional
// ones. Flags may come before, between or after them (`report r.json
// --format html`); `--` ends the flags. It returns ok false when the
// command must stop, with the exit status: --help prints the usage to
// stdout and succeeds, a bad flag prints the problem and the usage to
// stderr and fails.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (pos []string, status int, ok bool) {
	var out bytes.Buffer
	fs.SetOutput(&out)
	err := parseInterleaved(fs, args, &pos)
	switch {
	case errors.Is(err, flag.ErrHelp):
		stdout.Write(out.Bytes())
		return nil, exitOK, false
	case err != nil:
		stderr.Write(out.Bytes())
		return nil, exitUsage, false
	}
	fs.SetOutput(stderr)
	return pos, exitOK, true
}

func parseInterleaved(fs *flag.FlagSet, args []string, pos *[]string) error {
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		switch {
		case len(args) == 0:
			return nil
		case args[0] == "--":
			*pos = append(*pos, args[1:]...)
			return nil
		}
		*pos = append(*pos, args[0])
		args = args[1:]
	}
}

// usageError reports a wrong use of a command and returns exitUsage.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "benchspec %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.SetOutput(stderr)
	fs.Usage()
	return exitUsage
}

// fail reports an error that stops a command, such as an unreadable
// input, and returns exitUsage.
func fail(stderr io.Writer, command string, err error) int {
	fmt.Fprintf(stderr, "benchspec %s: %v\n", command, err)
	return exitUsage
}
