package benchspec_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/examples/suitetest"
)

// The handoff runs only the suite that was started, with the benchspec
// program it names: a BENCHSPEC_SUITE left in the environment is not the
// suite, $BENCHSPEC_PARENT naming the suite (directly or through a
// script) is refused instead of looping, and a program that is no
// benchspec program (/bin/true) is refused instead of exiting 0 having
// run nothing.
func TestHandoffRunsOnlyTheSuiteStartedWithTheProgramNamed(t *testing.T) {
	suitetest.SkipShort(t)
	other := filepath.Join(t.TempDir(), "other-suite")
	if err := os.WriteFile(other, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A stale BENCHSPEC_SUITE (and a stale handoff PID) in the suite's
	// environment: the suite started is the one listed.
	r, err := suitetest.Command([]string{"BENCHSPEC_SUITE=" + other, "BENCHSPEC_HANDOFF=1"}, "list")
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 0 || !strings.Contains(r.Stdout, "e2e.work") {
		t.Errorf("suite list with a stale BENCHSPEC_SUITE: exit %d, stdout:\n%s\nstderr:\n%s\nwant 0 and the suite's own benchmarks", r.Code, r.Stdout, r.Stderr)
	}
	// The program run directly takes no suite from the environment.
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	cmd := exec.Command(parent, "list")
	cmd.Env = append(os.Environ(), "BENCHSPEC_SUITE="+other, "BENCHSPEC_HANDOFF=1")
	out, err := cmd.CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "list needs a suite binary: --suite SUITE") {
		t.Errorf("benchspec list with a stale BENCHSPEC_SUITE: exit %d, output:\n%s\nwant 2: no suite given", code, out)
	}

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "wrapper")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec "+self+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	silent := filepath.Join(t.TempDir(), "silent")
	if err := os.WriteFile(silent, []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ parent, want string }{
		{self, "is this suite binary itself: it must name the benchspec program"},
		{script, "is not the benchspec program (asked, exit status 2: " + self + " is a suite binary, not the benchspec program)"},
		{"/bin/true", "is not the benchspec program (asked, it printed nothing and exited 0)"},
		{silent, "is not the benchspec program (asked, hello)"},
		{other, "is not the benchspec program (asked, exit status 3)"},
	} {
		r, err := suitetest.Command([]string{"BENCHSPEC_PARENT=" + tt.parent}, "list")
		if err != nil {
			t.Fatal(err)
		}
		if r.Code != 2 || !strings.Contains(r.Stderr, "$BENCHSPEC_PARENT="+tt.parent+" "+tt.want) || r.Stdout != "" {
			t.Errorf("BENCHSPEC_PARENT=%s: exit %d, stdout %q, stderr:\n%s\nwant 2 and %q", tt.parent, r.Code, r.Stdout, r.Stderr, tt.want)
		}
	}
}

// exitCode is the exit status of a command's error (0: none).
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
