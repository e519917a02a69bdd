package gotest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
		errs := CheckPackageScope([]*spec.Spec{s})
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
		return CheckPackageScope([]*spec.Spec{s}).Error()
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

// TestPGOProfileStaysInTheSpecsModule: a build's profile is a file of
// the module that holds the spec: a path that climbs out, an absolute
// path elsewhere, a symbolic link in the module to a file outside and a
// file of a nested module are refused at the pgo key; a path inside,
// auto and off pass.
func TestPGOProfileStaysInTheSpecsModule(t *testing.T) {
	root := t.TempDir()
	mod, other := filepath.Join(root, "m"), filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(mod, "bench"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, data := range map[string]string{
		filepath.Join(mod, "go.mod"):               "module example.com/m\n",
		filepath.Join(mod, "bench", "default.pgo"): "",
		filepath.Join(other, "default.pgo"):        "",
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(other, "default.pgo"), filepath.Join(mod, "bench", "link.pgo")); err != nil {
		t.Fatal(err)
	}
	check := func(pgo string) string {
		s := &spec.Spec{Path: filepath.Join(mod, "bench", "s.yaml"), Builds: []spec.Build{{Name: "p", PGO: pgo}}}
		return CheckBuildScope([]*spec.Spec{s}).Error()
	}
	for _, pgo := range []string{"../../other/default.pgo", filepath.Join(other, "default.pgo"), "link.pgo", "../.."} {
		if msg := check(pgo); !strings.Contains(msg, "builds[0].pgo: "+pgo+" is outside the directory of the module example.com/m") {
			t.Errorf("pgo %s: %q, want refused", pgo, msg)
		}
	}
	for _, pgo := range []string{"default.pgo", "../bench/default.pgo", filepath.Join(mod, "bench", "default.pgo"), "auto", "off"} {
		if msg := check(pgo); msg != "" {
			t.Errorf("pgo %s: %s, want accepted", pgo, msg)
		}
	}
	// A nested module's file is another module's, as its packages are.
	nested := filepath.Join(mod, "vendored", "prof")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, data := range map[string]string{filepath.Join(mod, "vendored", "go.mod"): "module example.com/v\n", filepath.Join(nested, "default.pgo"): ""} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if msg := check("../vendored/prof/default.pgo"); !strings.Contains(msg, "is in another module (vendored/go.mod)") {
		t.Errorf("pgo in a nested module: %q, want refused", msg)
	}
	// A FIFO or a directory is no profile.
	if err := syscall.Mkfifo(filepath.Join(mod, "bench", "fifo.pgo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for pgo, want := range map[string]string{"fifo.pgo": "fifo.pgo is a FIFO, not a profile file", ".": ". is a directory, not a profile file"} {
		if msg := check(pgo); !strings.Contains(msg, want) {
			t.Errorf("pgo %s: %q, want %q", pgo, msg, want)
		}
	}
}
