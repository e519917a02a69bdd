package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// TestPackagePathClimbingOutIsRefused: the scope check judges the
// package a path names, not how the path starts. An import path that
// starts with the module's path and climbs out of it (.., ., //), and a
// symbolic link in the module to a directory outside it, are refused
// before anything is built; clean paths inside the module still pass.
func TestPackagePathClimbingOutIsRefused(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "m3")
	other := filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(mod, "inside"), filepath.Join(mod, "bench"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m3\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(mod, "link")); err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(mod, "bench", "s.yaml")
	check := func(pkg string) string {
		s := &spec.Spec{Path: specPath, Entries: []spec.Entry{{Package: pkg}}}
		errs := plan.CheckPackageScope([]*spec.Spec{s})
		if len(errs) == 0 {
			return ""
		}
		return errs.Error()
	}
	for _, pkg := range []string{
		"example.com/m3/../../golang.org/x/text/unicode/norm",
		"example.com/m3/inside/../../other",
		"example.com/m3/./inside",
		"example.com/m3//inside",
		"example.com/m3/inside/",
		"strings/../../example.com/x",
		"example.com/m3/link",
		"../link",
		"./../link/",
	} {
		msg := check(pkg)
		if msg == "" {
			t.Errorf("package %q: accepted, want refused", pkg)
			continue
		}
		if !strings.Contains(msg, pkg) && !strings.Contains(msg, filepath.Clean(pkg)) {
			t.Errorf("package %q: the message does not name it: %s", pkg, msg)
		}
	}
	for _, pkg := range []string{"example.com/m3", "example.com/m3/inside", "../inside", "strings", "./../inside/../inside"} {
		if msg := check(pkg); msg != "" {
			t.Errorf("package %q: refused, want accepted: %s", pkg, msg)
		}
	}
}

// TestDistributionCommandsAreNotStandardLibrary: the Go distribution's
// cmd tree (the go command, the compiler) is not the standard library a
// spec may name: refused with what it is; std packages, internal ones
// included, pass.
func TestDistributionCommandsAreNotStandardLibrary(t *testing.T) {
	mod := t.TempDir()
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(pkg string) string {
		s := &spec.Spec{Path: filepath.Join(mod, "s.yaml"), Entries: []spec.Entry{{Package: pkg}}}
		return plan.CheckPackageScope([]*spec.Spec{s}).Error()
	}
	for _, pkg := range []string{"cmd/go", "cmd/compile/internal/ssa", "cmd"} {
		if msg := check(pkg); !strings.Contains(msg, pkg+" is in the Go distribution's cmd tree") {
			t.Errorf("package %s: %q, want refused as the distribution's cmd tree", pkg, msg)
		}
	}
	for _, pkg := range []string{"strings", "encoding/json", "internal/bytealg"} {
		if msg := check(pkg); msg != "" {
			t.Errorf("package %s: %s, want accepted", pkg, msg)
		}
	}
}
