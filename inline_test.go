package benchspec_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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

// TestInvocationsInlineInUserCode checks that `for range b.Invocations()`
// compiles to a loop with no call per invocation: B.Invocations, the
// worker's, the iterator they return and the loop body (the compiler's
// "-range1" function) must all be inlined into the user's function, so
// that the countdown stays in a register. The body is added to the
// quickstart suite through an overlay, as a user's file would be.
func TestInvocationsInlineInUserCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a suite with -gcflags=-m")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "ranged.go")
	body := `package main

import (
	"math"

	"github.com/benchspec/benchspec"
)

func init() {
	benchspec.Register("sqrt.Ranged", func(b *benchspec.B) {
		x := 0.0
		for range b.Invocations() {
			benchspec.Sink(math.Sqrt(x))
			x++
		}
	})
}
`
	if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(wd, "examples/quickstart/zz_ranged.go"): src}})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "build", "-overlay", ov, "-o", filepath.Join(dir, "q"), "-gcflags=-m", "./examples/quickstart").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, fn := range []string{
		`benchspec\.\(\*B\)\.Invocations`,
		`worker\.\(\*B\)\.Invocations`,
		`\S*\(\*B\)\.Invocations\.1`, // the iterator the worker returns
		`init\.\d+\.func\d+-range1`,  // the loop body
	} {
		if !regexp.MustCompile(`zz_ranged\.go:\d+:\d+: inlining call to ` + fn).Match(out) {
			t.Errorf("for range b.Invocations() is not inlined into the suite (no %q in the -m output); the loop must run with no call per invocation:\n%s", fn, out)
		}
	}
}
