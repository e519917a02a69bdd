// Package suitetest lets an example suite's tests run the suite end to
// end — the real CLI, real forks, the real report — with its test binary
// as the suite binary: Main, as the package's TestMain, turns the test
// binary into the suite when Run starts it (and into the worker when the
// suite starts it as a fork).
package suitetest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/report"
)

// envMain tells the test binary to be the suite.
const envMain = "BENCHSPEC_SUITETEST_MAIN"

// Main is a suite package's TestMain: it runs benchspec.Main when the
// binary was started by Run or as a fork, and the tests otherwise.
func Main(m *testing.M) {
	if os.Getenv(envMain) == "1" || os.Getenv(executor.EnvAssignment) != "" {
		benchspec.Main()
	}
	os.Exit(m.Run())
}

// Run writes spec to a temporary file, runs `SUITE run SPEC --format json
// --quiet` with the test binary as the suite, and returns the report and
// the exit status. It fails the test when there is no report.
func Run(t *testing.T, spec string, args ...string) (*report.Report, int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(os.Args[0], append([]string{"run", path, "--format", "json", "--quiet"}, args...)...)
	cmd.Env = append(os.Environ(), envMain+"=1")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running the suite: %v", err)
	}
	rep, rerr := report.Read(&stdout)
	if rerr != nil {
		t.Fatalf("suite run (exit %d): %v\nstderr:\n%s", status, rerr, stderr.String())
	}
	return rep, status
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
