// Package handoff is how a suite binary run by a person passes its
// command line to the benchspec program, the parent that reads specs,
// plans, runs the suite's forks and reports. A suite binary links only
// the fork side; everything a command line needs is the parent's.
package handoff

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/benchspec/benchspec/internal/protocol"
)

// EnvParent names the benchspec program a suite binary hands its
// command line to, overriding the search (Find).
const EnvParent = "BENCHSPEC_PARENT"

// Run replaces this process with the parent, run with args (args[0], the
// suite's name as run, stays the program's name in its messages) and
// this binary's path in protocol.EnvSuite. It returns only when that
// fails, with exit status 2 after saying why on stderr.
func Run(args []string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot find this suite binary's path: %v\n", name(args), err)
		return 2
	}
	parent, err := Find()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name(args), err)
		return 2
	}
	env := append(os.Environ(), protocol.EnvSuite+"="+exe)
	argv := append([]string{name(args)}, args[1:]...)
	err = syscall.Exec(parent, argv, env)
	fmt.Fprintf(os.Stderr, "%s: starting the benchspec program %s: %v\n", name(args), parent, err)
	return 2
}

// name is the suite's name as run, for its messages.
func name(args []string) string {
	if len(args) > 0 && args[0] != "" {
		return filepath.Base(args[0])
	}
	return "benchspec"
}

// Find returns the path of the benchspec program: $BENCHSPEC_PARENT;
// else the module's tool (`go tool benchspec`, from a `tool` line in the
// go.mod of the current directory's module: built once, then cached by
// the go command); else `benchspec` on PATH.
func Find() (string, error) {
	if p := os.Getenv(EnvParent); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("$%s=%q: %v", EnvParent, p, err)
		}
		return path, nil
	}
	var tried []string
	if goCmd, err := exec.LookPath("go"); err == nil {
		path, err := goTool(goCmd)
		if err == nil {
			return path, nil
		}
		tried = append(tried, err.Error())
	} else {
		tried = append(tried, "no go command on PATH")
	}
	if path, err := exec.LookPath("benchspec"); err == nil {
		return path, nil
	}
	tried = append(tried, "no benchspec on PATH")
	return "", errors.New("this suite's commands are run by the benchspec program, and none was found (" + strings.Join(tried, "; ") +
		"). In your module: go get -tool github.com/benchspec/benchspec/cmd/benchspec; or install it on PATH; or set " + EnvParent + " to its path")
}

// goTool builds (or finds in the go command's cache) the module's
// benchspec tool and returns its path.
func goTool(goCmd string) (string, error) {
	cmd := exec.Command(goCmd, "tool", "-n", "benchspec")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("go tool benchspec: %s", msg)
	}
	path := strings.TrimSpace(string(out))
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		return "", fmt.Errorf("go tool -n benchspec printed %q, not a program", path)
	}
	return path, nil
}
