package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
)

// TestSources checks what a report says it measured: the binary's own
// module for registered benchmarks, and a package entry's module with
// its git state, modified once the work tree is.
func TestSources(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2026-01-14T12:00:00Z", "GIT_AUTHOR_DATE=2026-01-14T12:00:00Z")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644)
	git("add", ".")
	git("commit", "-q", "-m", "a")
	rev := git("rev-parse", "HEAD")
	rev = rev[:len(rev)-1]

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{Runs: []plan.Run{
		{Key: "registered:avgt"},
		{Key: "BenchmarkA:avgt", GoTest: &plan.GoTest{ImportPath: "example.com/a", Dir: repo, Binary: self}},
		{Key: "BenchmarkB:avgt", GoTest: &plan.GoTest{ImportPath: "example.com/a", Dir: repo, Binary: self}},
	}}
	got := sources(context.Background(), p)
	// This test binary stands in for the package's: its module is
	// benchspec's.
	want := []report.Source{
		{Module: "github.com/benchspec/benchspec"},
		{Module: "github.com/benchspec/benchspec", Package: "example.com/a", VCS: "git", Revision: rev, Time: "2026-01-14T12:00:00Z"},
	}
	if bs, ok := binarySource(); ok {
		want[0] = bs // stamped or not, as this test binary was built
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a // changed\n"), 0o644)
	if got := sources(context.Background(), p); !got[1].Modified {
		t.Errorf("after an uncommitted change: %+v, want modified", got[1])
	}
}
