// Package cli is the command line of the benchspec program
// (cmd/benchspec; a suite binary run by hand hands its command line
// over): one toolkit for commands, flags, usage and mistakes (Program,
// Env); the commands that read specs (SpecCommands: run, list, validate,
// plan, ab), through one path that loads and validates them (load.go)
// and one Registry that builds and lists what they run (builds.go);
// one writer for every output (WriteOutput), with the run journal and
// the results directory; and the one dispatch of the roles the
// program's own processes play (dispatch.go).
package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/internal/suggest"
	"github.com/benchspec/benchspec/internal/termsafe"
)

// Exit statuses shared by every command.
const (
	ExitOK    = 0
	ExitFail  = 1 // a benchmark failed or a comparison found a regression
	ExitUsage = 2 // bad usage, an invalid spec or input, an output that cannot be written
)

// ProgName is the program's name as the user ran it, for usage and
// error messages: a suite binary has whatever name its module gave it.
func ProgName() string { return filepath.Base(os.Args[0]) }

// Program is a binary's command line: its commands, and the text its
// usage ends with.
type Program struct {
	Name     string // ProgName()
	Commands []Command
	Footer   string // after the list of commands; "" for none
}

// Command is one sub-command. Run gets the arguments after the command's
// name and returns the exit status.
type Command struct {
	Name    string
	Args    string // the arguments in the usage's command list: "SPEC..."
	Summary string // one line
	Run     func(e *Env, args []string) int
}

// Env is what a command runs with: its names for messages, and its
// outputs. Stdout fails the command when it cannot be written (see
// Program.Run).
type Env struct {
	Prog, Cmd      string
	Stdout, Stderr io.Writer
}

// Run runs the command line args (without the program's name) and
// returns the exit status. A mistake gets a short message, with the name
// the user probably meant, and a pointer to the usage rather than the
// usage itself, so that the message stays on screen. Whatever a command
// returns, writing to stdout failed (a full disk, a closed pipe) makes
// it fail: a truncated listing must not pass for a whole one.
func (p *Program) Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		p.usage(stderr)
		return ExitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help", "help":
		if name == "help" && len(rest) > 0 {
			return p.Run([]string{rest[0], "--help"}, stdout, stderr)
		}
		out := &checkedWriter{w: stdout}
		p.usage(out)
		return p.outputStatus("", out, ExitOK, stderr)
	}
	for _, c := range p.Commands {
		if c.Name == name {
			out := &checkedWriter{w: stdout}
			status := c.Run(&Env{Prog: p.Name, Cmd: c.Name, Stdout: out, Stderr: stderr}, rest)
			return p.outputStatus(c.Name, out, status, stderr)
		}
	}
	names := []string{"help"}
	for _, c := range p.Commands {
		names = append(names, c.Name)
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := suggest.Typo(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	fmt.Fprintf(stderr, "%s: %s\nRun '%s help' for usage.\n", p.Name, msg, p.Name)
	return ExitUsage
}

// outputStatus fails a command that succeeded but could not write its
// output; a command that failed has said why already.
func (p *Program) outputStatus(cmd string, out *checkedWriter, status int, stderr io.Writer) int {
	if out.err == nil || status != ExitOK {
		return status
	}
	prefix := p.Name
	if cmd != "" {
		prefix += " " + cmd
	}
	fmt.Fprintf(stderr, "%s: writing to stdout: %v\n", prefix, out.err)
	return ExitUsage
}

func (p *Program) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s <command> [flags] [arguments]\n\nCommands:\n", p.Name)
	width := 0
	for _, c := range p.Commands {
		width = max(width, len(strings.TrimSpace(c.Name+" "+c.Args)))
	}
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, strings.TrimSpace(c.Name+" "+c.Args), c.Summary)
	}
	if p.Footer != "" {
		fmt.Fprintf(w, "\n%s", p.Footer)
	}
	fmt.Fprintf(w, "\nRun '%s help <command>' for a command's flags.\n", p.Name)
}

// checkedWriter remembers the first error of the writer it wraps.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// Flags returns a command's flag set. synopsis is the usage line after
// the program's name ("run [flags] SPEC..."), help the paragraph that
// explains the command ("" for none).
func (e *Env) Flags(synopsis, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(e.Cmd, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s %s\n", e.Prog, synopsis)
		if help != "" {
			fmt.Fprintf(w, "\n%s\n", help)
		}
		if n := flagNames(fs); len(n) > 0 {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	return names
}

// Parse parses a command's arguments and returns the positional ones.
// Flags may come before, between or after them (`run spec.yaml --format
// json`); `--` ends the flags. ok is false when the command must stop,
// with the exit status: --help prints the usage to stdout and succeeds;
// a bad flag prints what is wrong, the flag probably meant, and where
// the usage is, and fails.
func (e *Env) Parse(fs *flag.FlagSet, args []string) (pos []string, status int, ok bool) {
	var usage bytes.Buffer
	fs.SetOutput(&usage)
	err := parseInterleaved(fs, args, &pos)
	fs.SetOutput(e.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		e.Stdout.Write(usage.Bytes())
		return nil, ExitOK, false
	case err != nil:
		msg := err.Error()
		if name, found := strings.CutPrefix(msg, "flag provided but not defined: -"); found {
			if s := suggest.Typo(strings.TrimPrefix(name, "-"), flagNames(fs)); s != "" {
				msg += fmt.Sprintf("; did you mean --%s?", s)
			}
		}
		return nil, e.UsageError("%s", msg), false
	}
	return pos, ExitOK, true
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

// UsageError reports a wrong use of the command, with where its usage is,
// and returns ExitUsage.
func (e *Env) UsageError(format string, args ...any) int {
	e.Errorf(format, args...)
	fmt.Fprintf(e.Stderr, "Run '%s %s -h' for usage.\n", e.Prog, e.Cmd)
	return ExitUsage
}

// Fail reports an error that stops the command, such as an unreadable
// input or an output that cannot be written, and returns ExitUsage.
func (e *Env) Fail(err error) int {
	e.Errorf("%v", err)
	return ExitUsage
}

// Errorf prints a message prefixed with the program's and the command's
// names.
func (e *Env) Errorf(format string, args ...any) {
	// What is printed quotes inputs (file names, spec values, a fork's
	// failure): termsafe keeps their control characters off the terminal.
	fmt.Fprintf(e.Stderr, "%s %s: %s\n", e.Prog, e.Cmd, termsafe.String(fmt.Sprintf(format, args...)))
}
