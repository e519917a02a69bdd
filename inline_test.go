package benchspec_test

import (
	"os/exec"
	"regexp"
	"testing"
)

// TestLoopInlinesInUserCode builds a suite that imports only this package
// and checks that its `for b.Loop()` has no call on the fast path, as
// testing.B.Loop has none.
func TestLoopInlinesInUserCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a suite with -gcflags=-m")
	}
	out, err := exec.Command("go", "build", "-o", t.TempDir()+"/q", "-gcflags=-m", "./examples/quickstart").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// B.Loop forwards to the worker's Loop: both must be inlined at the
	// user's call site for the fast path to have no call.
	for _, fn := range []string{`benchspec\.\(\*B\)\.Loop`, `worker\.\(\*B\)\.Loop`} {
		if !regexp.MustCompile(`main\.go:\d+:\d+: inlining call to ` + fn).Match(out) {
			t.Errorf("b.Loop() is not inlined into the suite (no %q in the -m output); the fast path must be a compare and an increment with no call:\n%s", fn, out)
		}
	}
}
