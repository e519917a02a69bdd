package cli

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestDispatchInlines checks that IsChild and ServeChild can be inlined:
// they only forward to package worker, so that a fork, which calls them
// first, runs no code of this package and reads none of its text from
// the binary (a page fault per fork).
func TestDispatchInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package with -gcflags=-m")
	}
	out, err := exec.Command("go", "build", "-gcflags=-m", "-o", os.DevNull, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, fn := range []string{"IsChild", "ServeChild"} {
		if !regexp.MustCompile(`dispatch\.go:\d+:\d+: can inline ` + fn + `\b`).Match(out) {
			t.Errorf("%s cannot be inlined (no \"can inline %s\" in the -m output): a fork would run this package's code for it", fn, fn)
		}
	}
}
