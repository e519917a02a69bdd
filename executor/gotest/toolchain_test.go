package gotest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// fakeGo writes a go command that records its arguments, one a line,
// and its GOTOOLCHAIN and GOAMD64, and writes the file -o names; ran
// reads what the last run recorded.
func fakeGo(t *testing.T) (bin string, ran func() (args, env []string)) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "go")
	script := `#!/bin/sh
printf '%s\n' "$@" > ` + dir + `/args
printf '%s\n' "$GOTOOLCHAIN" "$GOAMD64" > ` + dir + `/env
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then echo built > "$2"; fi
	shift
done
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	read := func(name string) []string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	return bin, func() ([]string, []string) { return read("args"), read("env") }
}

// TestGoCommandRunsTheLocalToolchain: every go command the bridge runs
// has GOTOOLCHAIN=local, whatever the caller's environment says, so a
// package's go.mod cannot make it download and run another toolchain.
func TestGoCommandRunsTheLocalToolchain(t *testing.T) {
	fake, ran := fakeGo(t)
	t.Setenv("GOTOOLCHAIN", "go1.99.0")
	if _, err := (&Builder{Go: fake}).goCmd(context.Background(), "", variant{}, "version"); err != nil {
		t.Fatal(err)
	}
	if _, env := ran(); env[0] != "local" {
		t.Errorf("the go command ran with GOTOOLCHAIN=%q, want local", env[0])
	}
}

// TestBuildFlagsReachTheGoCommand: a spec's build reaches the go command
// as one argument per flag, never split or through a shell (a gcflags of
// several words stays one -gcflags=…), and as GOTOOLCHAIN and GOAMD64 in
// the environment of that build's go commands only; the plain build has
// GOTOOLCHAIN=local and the caller's GOAMD64.
func TestBuildFlagsReachTheGoCommand(t *testing.T) {
	fake, ran := fakeGo(t)
	t.Setenv("GOAMD64", "v1")
	b := &Builder{Go: fake, CacheDir: t.TempDir()}
	v := &spec.Build{Name: "all", Toolchain: "go1.26.8", GCFlags: "all=-N -l", Tags: []string{"purego", "x.y"}, GOAMD64: "v3", PGO: "/abs/default.pgo"}
	for _, tt := range []struct {
		build     *spec.Build
		flags     []string
		toolchain []string
	}{
		{v, []string{"-tags=purego,x.y", "-gcflags=all=-N -l", "-pgo=/abs/default.pgo"}, []string{"go1.26.8", "v3"}},
		{nil, nil, []string{"local", "v1"}},
	} {
		if _, err := b.BuildSuite(context.Background(), "", "./bench", tt.build); err != nil {
			t.Fatal(err)
		}
		args, env := ran()
		want := append(append([]string{"build", "-o", args[2]}, tt.flags...), "./bench")
		if diff := cmp.Diff(want, args); diff != "" {
			t.Errorf("build %v: the go command's arguments (-want +got):\n%s", tt.build, diff)
		}
		if diff := cmp.Diff(tt.toolchain, env); diff != "" {
			t.Errorf("build %v: GOTOOLCHAIN and GOAMD64 (-want +got):\n%s", tt.build, diff)
		}
	}
}
