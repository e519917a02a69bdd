// Package suitetest lets an example suite's tests run the suite end to
// end — the real CLI, real forks, the real report — with its test binary
// as the suite binary: Main, as the package's TestMain, turns the test
// binary into the suite when Run starts it (and into the worker when the
// suite starts it as a fork).
package suitetest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/internal/handoff"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/report"
)

// envMain tells the test binary to be the suite.
const envMain = "BENCHSPEC_SUITETEST_MAIN"

// Main is a suite package's TestMain: it runs benchspec.Main when the
// binary was started by Run, as a fork or as a batch's guard, and the
// tests otherwise.
func Main(m *testing.M) {
	if os.Getenv(envMain) == "1" || worker.IsChild() || os.Getenv(protocol.EnvList) != "" {
		benchspec.Main()
	}
	os.Exit(m.Run())
}

// Result is what a suite command did.
type Result struct {
	Code           int // exit status
	Stdout, Stderr string
	PID            int // the suite process's
}

// SkipShort skips an end-to-end test under go test -short: such a test
// starts the suite and its forks as real processes, which the unit tiers
// (go test -short ./...) leave to the full suite that CI runs.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("end to end (real processes and forks): runs without -short")
	}
}

// Exec runs the test binary as the suite with args (`run spec.yaml …`).
// Under -short it skips the test (see SkipShort).
func Exec(t *testing.T, args ...string) Result {
	t.Helper()
	SkipShort(t)
	r, err := Command(nil, args...)
	if err != nil {
		t.Fatalf("running the suite: %v", err)
	}
	return r
}

// Command runs the test binary as the suite with args and extra
// environment variables; unlike Exec it may be called from any goroutine.
// A non-zero exit is a Result, not an error.
func Command(env []string, args ...string) (Result, error) {
	parent, err := findParent()
	if err != nil {
		return Result{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), envMain+"=1", handoff.EnvParent+"="+parent), env...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code, err = ee.ExitCode(), nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{code, stdout.String(), stderr.String(), cmd.Process.Pid}, nil
}

// Start starts the test binary as the suite with args and extra
// environment variables, its output into stdout and stderr, and does not
// wait: for a test that signals the batch or runs another beside it.
func Start(env []string, stdout, stderr io.Writer, args ...string) (*exec.Cmd, error) {
	parent, err := findParent()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), envMain+"=1", handoff.EnvParent+"="+parent), env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd, cmd.Start()
}

// findParent finds the benchspec program once per test binary (building
// it, the first time, through the go command: handoff.Find).
var findParent = sync.OnceValues(handoff.Find)

// ParentEnv is the environment variable that makes a suite binary started
// by a test hand its command line to the benchspec program of this
// module, wherever the suite runs (a test's temporary directory is in no
// module, where `go tool benchspec` finds none).
func ParentEnv(t testing.TB) string {
	t.Helper()
	parent, err := findParent()
	if err != nil {
		t.Fatalf("finding the benchspec program: %v", err)
	}
	return handoff.EnvParent + "=" + parent
}

// WriteSpec writes a spec into a temporary directory and returns its path.
func WriteSpec(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Run writes spec to a temporary file, runs `SUITE run SPEC --format json
// --quiet` with the test binary as the suite, and returns the report and
// the exit status. It fails the test when there is no report, and skips
// it under -short.
func Run(t *testing.T, spec string, args ...string) (*report.Report, int) {
	t.Helper()
	r := Exec(t, append([]string{"run", WriteSpec(t, spec), "--format", "json", "--quiet"}, args...)...)
	rep, err := report.Read(strings.NewReader(r.Stdout))
	if err != nil {
		t.Fatalf("suite run (exit %d): %v\nstderr:\n%s", r.Code, err, r.Stderr)
	}
	return rep, r.Code
}

// Codes returns the diagnostic codes of the report's runs by benchmark
// name, each run's in the order reported ([] for none).
func Codes(r *report.Report) map[string][]string {
	out := map[string][]string{}
	for _, run := range r.Runs {
		codes := []string{}
		for _, d := range run.Diagnostics {
			codes = append(codes, d.Code)
		}
		out[run.Benchmark] = codes
	}
	return out
}
