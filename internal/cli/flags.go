// Package cli holds the commands of a suite binary (run, list, validate,
// plan), shared by benchspec.Main, so that the root package stays a thin
// facade and the commands can be tested without a registry of their own.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// parse parses flags that may come before, between or after the
// positional arguments (`run spec.yaml --format json`), as the README's
// examples write them; `--` ends the flags.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newFlagSet returns a flag set that reports errors instead of exiting,
// with a usage line.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", usage)
		if hasFlags(fs) {
			fmt.Fprintln(stderr, "flags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// usageStatus maps a flag parsing error to an exit status: --help is 0,
// anything else bad usage.
func usageStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
