package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// fakeSuite writes a script that lists the benchmarks names as a suite
// binary does (protocol.EnvList), at path.
func fakeSuite(t *testing.T, path string, names ...string) {
	t.Helper()
	var l protocol.Listing
	l.Version = protocol.Version
	for _, n := range names {
		l.Benchmarks = append(l.Benchmarks, protocol.Registered{Name: n})
	}
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho '"+string(js)+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestBuildsAreBuiltFromTheSuitePackage: run and plan build the suite's
// main package once per build of the specs, by the registry's Build,
// with the build's flags and its profile's path resolved from the spec's
// directory; each build's runs get its binary, and a build's own
// benchmarks are its alone. A spec without builds keeps the suite as
// given.
func TestBuildsAreBuiltFromTheSuitePackage(t *testing.T) {
	dir := t.TempDir()
	plain, built := filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "builds.yaml")
	files := map[string]string{
		plain: "version: 1\nname: p\nbenchmarks:\n  - include: '^a$'\n",
		built: "version: 1\nname: b\nbuilds:\n  - name: base\n  - name: pgo\n    pgo: prof/default.pgo\n    tags: [extra]\nbenchmarks:\n  - include: '^(a|extra)$'\n",
	}
	for path, body := range files {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var calls []string
	reg := Registry{Build: func(ctx context.Context, dir, pkg string, b *spec.Build) (string, error) {
		name, names := "plain", []string{"a"}
		if b != nil {
			name = b.Name
			calls = append(calls, fmt.Sprintf("%s %s tags=%v pgo=%s", pkg, b.Name, b.Tags, b.PGO))
			if len(b.Tags) > 0 {
				names = append(names, "extra")
			}
		}
		bin := filepath.Join(t.TempDir(), "suite-"+name)
		fakeSuite(t, bin, names...)
		return bin, nil
	}}
	var stderr bytes.Buffer
	e := &Env{Prog: "p", Cmd: "plan", Stdout: &bytes.Buffer{}, Stderr: &stderr}
	reg, ok := reg.withSuite(context.Background(), e, "./bench")
	if !ok {
		t.Fatal(stderr.String())
	}
	p, ok := load(context.Background(), e, []string{plain, built}, &reg, &loadOpts{listPackages: true, quiet: true})
	if !ok {
		t.Fatal(stderr.String())
	}
	want := []string{"./bench base tags=[] pgo=", "./bench pgo tags=[extra] pgo=" + filepath.Join(dir, "prof", "default.pgo")}
	if d := cmp.Diff(want, calls); d != "" {
		t.Errorf("builds of the suite (-want +got):\n%s", d)
	}
	var got []string
	for _, r := range p.Runs {
		exe := "the batch's"
		if r.Executable != "" {
			exe = filepath.Base(r.Executable)
		}
		got = append(got, r.Key+" "+exe)
	}
	want = []string{"a:avgt the batch's", "a/build=base:avgt suite-base", "a/build=pgo:avgt suite-pgo", "extra/build=pgo:avgt suite-pgo"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runs and their binaries (-want +got):\n%s", d)
	}
}

// TestBuildsOfAPrebuiltSuiteAreRefused: a suite given as a binary (as a
// suite binary run by hand hands itself over) cannot be built otherwise:
// run and plan of a spec with builds exit 2 and say to name the suite's
// main package; validate, which builds nothing, checks the spec.
func TestBuildsOfAPrebuiltSuiteAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	body := "version: 1\nname: b\nbuilds:\n  - name: base\n  - name: noinline\n    gcflags: -l\nbenchmarks:\n  - include: '^sqrt\\.Sunk$'\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"run", "plan"} {
		var stdout, stderr bytes.Buffer
		code := Suite(context.Background(), []string{cmd, path}, registry, &stdout, &stderr)
		want := path + ":4:5: builds: benchspec builds each build of the suite from its main package, and the suite here is a built binary (/nonexistent/never-run): run with --suite PKG naming the suite's main package"
		if code != 2 || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant 2 and %q", cmd, code, stderr.String(), want)
		}
	}
	var stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"validate", path}, registry, &bytes.Buffer{}, &stderr); code != 0 {
		t.Errorf("validate: exit %d, stderr:\n%s\nwant 0", code, stderr.String())
	}
}

// TestOneBuildNamePerBatch: two specs of one batch that build one name
// differently are refused at the second's build; alike, they share it.
func TestOneBuildNamePerBatch(t *testing.T) {
	dir := t.TempDir()
	for name, gcflags := range map[string]string{"a.yaml": "-l", "b.yaml": "-N", "c.yaml": "-l"} {
		body := "version: 1\nname: x\nbuilds:\n  - name: base\n  - name: opt\n    gcflags: " + gcflags + "\nbenchmarks:\n  - include: x\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	validate := func(names ...string) (int, string) {
		var paths []string
		for _, n := range names {
			paths = append(paths, filepath.Join(dir, n))
		}
		var stderr bytes.Buffer
		code := Validate(context.Background(), &Env{Prog: "p", Cmd: "validate", Stdout: &bytes.Buffer{}, Stderr: &stderr}, paths, Registry{})
		return code, stderr.String()
	}
	want := filepath.Join(dir, "b.yaml") + `:5:5: builds[1]: build "opt" is built otherwise in ` + filepath.Join(dir, "a.yaml")
	if code, out := validate("a.yaml", "b.yaml"); code != 2 || !strings.Contains(out, want) {
		t.Errorf("a and b: exit %d:\n%s\nwant 2 and %q", code, out, want)
	}
	if code, out := validate("a.yaml", "c.yaml"); code != 0 {
		t.Errorf("a and c: exit %d:\n%s\nwant 0", code, out)
	}
}
