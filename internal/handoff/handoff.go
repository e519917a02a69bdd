// Package handoff is how a suite binary run by a person passes its
// command line to the benchspec program, the parent that reads specs,
// plans, runs the suite's forks and reports. A suite binary links only
// the fork side; everything a command line needs is the parent's.
package handoff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/termsafe"
)

// EnvParent names the benchspec program a suite binary hands its
// command line to, overriding the search (Find).
const EnvParent = "BENCHSPEC_PARENT"

// Run replaces this process with the parent, run with args (args[0], the
// suite's name as run, stays the program's name in its messages) and
// this binary's path in protocol.EnvSuite, with its PID in
// protocol.EnvHandoff (the program's PID after exec: how the program
// tells a handoff from a BENCHSPEC_SUITE left in an environment). The
// parent must answer protocol.EnvProbe as the benchspec program does:
// $BENCHSPEC_PARENT naming this binary (a loop) or a program that is
// none (/bin/true, which would exit 0 having run nothing) is refused.
// Run returns only when that fails, with exit status 2 after saying why
// on stderr.
func Run(args []string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot find this suite binary's path: %v\n", name(args), err)
		return 2
	}
	parent, err := Find()
	if err == nil {
		err = check(parent, exe)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name(args), err)
		return 2
	}
	// A role variable inherited from the environment would come first
	// and win over this handoff's: none passes.
	env := slices.DeleteFunc(os.Environ(), isRoleVar)
	env = append(env, protocol.EnvSuite+"="+exe, protocol.EnvHandoff+"="+strconv.Itoa(os.Getpid()))
	argv := append([]string{name(args)}, args[1:]...)
	err = syscall.Exec(parent, argv, env)
	fmt.Fprintf(os.Stderr, "%s: starting the benchspec program %s: %v\n", name(args), parent, err)
	return 2
}

// HandedSuite is the suite binary that handed its command line to this
// process, the benchspec program, or "" when none did: EnvSuite counts
// only with an EnvHandoff of this process's PID.
func HandedSuite() string {
	if os.Getenv(protocol.EnvHandoff) != strconv.Itoa(os.Getpid()) {
		return ""
	}
	return os.Getenv(protocol.EnvSuite)
}

// check makes sure that parent is a benchspec program and not the suite
// binary exe itself: it asks (protocol.EnvProbe), within probeTimeout.
func check(parent, exe string) error {
	what := "the benchspec program " + parent
	if p := os.Getenv(EnvParent); p != "" {
		what = fmt.Sprintf("$%s=%s", EnvParent, p)
	}
	if a, err := os.Stat(parent); err == nil {
		if b, err := os.Stat(exe); err == nil && os.SameFile(a, b) {
			return fmt.Errorf("%s is this suite binary itself: it must name the benchspec program (go tool -n benchspec prints its path)", what)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, parent)
	cmd.Env = append(slices.DeleteFunc(os.Environ(), isRoleVar), protocol.EnvProbe+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{b: &stdout, n: 256}
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 1024}
	err := cmd.Run()
	if err == nil && stdout.String() == protocol.ProbeAnswer() {
		return nil
	}
	answer := strings.TrimSpace(stdout.String() + " " + stderr.String())
	switch {
	case ctx.Err() != nil:
		answer = fmt.Sprintf("no answer in %s", probeTimeout)
	case strings.HasPrefix(stdout.String(), "benchspec program, protocol "):
		return fmt.Errorf("%s speaks another protocol (%s; this suite: %s): build both from one benchspec version",
			what, strings.TrimSpace(stdout.String()), strings.TrimSpace(protocol.ProbeAnswer()))
	case err != nil && answer != "":
		answer = fmt.Sprintf("%v: %s", err, answer)
	case err != nil:
		answer = err.Error()
	case answer == "":
		answer = "it printed nothing and exited 0"
	}
	return fmt.Errorf("%s is not the benchspec program (asked, %s): name the benchspec program, or unset %s to find it as go tool benchspec",
		what, termsafe.Line(answer), EnvParent)
}

// probeTimeout bounds the probe: the program answers before it reads
// anything.
const probeTimeout = 30 * time.Second

func isRoleVar(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	return slices.Contains(protocol.RoleVars, k)
}

// limitedBuffer keeps the first n bytes written to it and drops the
// rest: a probed program's output is quoted, never stored whole.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
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
