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
	if !regexp.MustCompile(`main\.go:\d+:\d+: inlining call to worker\.\(\*B\)\.Loop`).Match(out) {
		t.Errorf("b.Loop() is not inlined into the suite; the fast path must be a compare and an increment with no call:\n%s", out)
	}
}
