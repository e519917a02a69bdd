package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
)

// TestSources checks what a report says it measured: the suite binary's
// module for registered benchmarks (once for the binaries of one module
// at one revision), and a package entry's module with its git state,
// modified once the work tree is.
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
		{Key: "registered/build=x:avgt", Build: "x", Executable: self},
		{Key: "BenchmarkA:avgt", GoTest: &plan.GoTest{ImportPath: "example.com/a", Dir: repo, Binary: self}},
		{Key: "BenchmarkB:avgt", GoTest: &plan.GoTest{ImportPath: "example.com/a", Dir: repo, Binary: self}},
	}}
	got := sources(context.Background(), p, self)
	// This test binary stands in for the package's: its module is
	// benchspec's.
	want := []report.Source{
		{Module: "github.com/benchspec/benchspec"},
		{Module: "github.com/benchspec/benchspec", Package: "example.com/a", VCS: "git", Revision: rev, Time: "2026-01-14T12:00:00Z"},
	}
	if bs, ok := binarySource(self); ok {
		want[0] = bs // stamped or not, as this test binary was built
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a // changed\n"), 0o644)
	if got := sources(context.Background(), p, self); !got[1].Modified {
		t.Errorf("after an uncommitted change: %+v, want modified", got[1])
	}
	if got := sources(context.Background(), &plan.Plan{Runs: p.Runs[:1]}, filepath.Join(repo, "a.go")); got != nil {
		t.Errorf("a suite that is not a Go binary: %+v, want no source rather than a guess", got)
	}
}

// TestBuildInfos: a report describes each spec build from its binary's
// own build information.
func TestBuildInfos(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{Runs: []plan.Run{
		{Key: "a:avgt"},
		{Key: "a/build=x:avgt", Build: "x", Executable: self},
		{Key: "B/build=x:avgt", Build: "x", GoTest: &plan.GoTest{Binary: self}},
		{Key: "a/build=gone:avgt", Build: "gone", Executable: filepath.Join(t.TempDir(), "gone")},
	}}
	got := buildInfos(p)
	want := []report.BuildInfo{{Name: "x", GoVersion: runtime.Version()}, {Name: "gone"}}
	if len(got) == 2 {
		want[0].GCFlags, want[0].Tags, want[0].GOAMD64, want[0].PGO = got[0].GCFlags, got[0].Tags, got[0].GOAMD64, got[0].PGO // as go test built this binary
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("builds (-want +got):\n%s", diff)
	}
}
