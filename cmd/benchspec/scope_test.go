package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPackageScope: a spec's package: entries name packages of the module
// that holds it (or the standard library). validate builds and lists a
// package as plan does; a package outside the module — a directory that
// leaves it, an absolute path, a nested module, another module's import
// path — is refused at its position by validate and by run before
// anything is built, unless --allow-packages-outside-module.
func TestPackageScope(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end (go test -c and real forks): runs without -short")
	}
	cache := t.TempDir()
	t.Setenv("BENCHSPEC_CACHE", cache)
	root := t.TempDir()
	// Each package's test binary creates $SCOPE_MARKER.<name> when it
	// starts: the proof that something of it ran.
	marker := filepath.Join(root, "ran")
	t.Setenv("SCOPE_MARKER", marker)
	pkg := func(dir, module, name string) {
		if module != "" {
			writeTestFile(t, filepath.Join(dir, "go.mod"), "module "+module+"\n\ngo 1.24\n")
		}
		writeTestFile(t, filepath.Join(dir, name+"_test.go"), `package `+name+`

import (
	"os"
	"testing"
)

func init() {
	if m := os.Getenv("SCOPE_MARKER"); m != "" {
		os.WriteFile(m+".`+name+`", nil, 0o644)
	}
}

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
	}
}
`)
	}
	mod := filepath.Join(root, "mod")
	pkg(mod, "example.com/mod", "top")
	pkg(filepath.Join(mod, "inside"), "", "inside")
	pkg(filepath.Join(mod, "nested"), "example.com/mod/nested", "nested")
	other := filepath.Join(root, "other")
	pkg(other, "example.com/other", "other")
	const head = "version: 1\nname: scope\ndefaults:\n  forks: 1\n  warmup: {iterations: 1, time: 1ms}\n  measurement: {iterations: 1, time: 1ms}\nbenchmarks:\n"
	in := filepath.Join(mod, "bench", "in.yaml")
	writeTestFile(t, in, head+"  - package: ../inside\n    include: Work\n")
	out := filepath.Join(mod, "bench", "out.yaml")
	writeTestFile(t, out, head+`  - package: ../../other
    include: Work
  - package: `+other+`
    include: Work
  - package: example.com/other
    include: Work
  - package: ../nested
    include: Work
`)
	ranNothing := func(when string) {
		t.Helper()
		if m, _ := filepath.Glob(marker + ".*"); len(m) > 0 {
			t.Errorf("%s: %v exist: a package's code ran", when, m)
		}
		if e, _ := os.ReadDir(cache); len(e) > 0 {
			t.Errorf("%s: the test binary cache holds %d entries: a package was built", when, len(e))
		}
	}

	const why = "; a spec runs only the packages of its own module and the standard library (--allow-packages-outside-module lifts this)"
	const holds = "the module example.com/mod that holds this spec (../go.mod)"
	want := []string{
		out + ":8:14: benchmarks[0].package: ../../other is outside the directory of " + holds + why,
		out + ":10:14: benchmarks[1].package: " + other + " is outside the directory of " + holds + why,
		out + ":12:14: benchmarks[2].package: example.com/other is neither in " + holds + " nor in the standard library" + why,
		out + ":14:14: benchmarks[3].package: ../nested is in another module (nested/go.mod), not in " + holds + why,
		"1 file, 4 errors",
	}
	for _, args := range [][]string{{"validate", out}, {"run", out, "--quiet"}} {
		status, stdout, stderr := runCmd(t, args...)
		if got := strings.Split(strings.TrimSpace(stderr), "\n"); status != exitUsage || stdout != "" || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s out.yaml = %d, stdout %q; stderr:\n%s\nwant 2 and:\n%s", args[0], status, stdout, stderr, strings.Join(want, "\n"))
		}
		ranNothing(args[0] + " of packages outside the module")
	}

	// validate builds and lists a package inside the module, as plan
	// does (an include that matches nothing is found there).
	status, _, stderr := runCmd(t, "validate", in)
	if status != exitOK || !strings.Contains(stderr, in+": ok (1 entry)") {
		t.Errorf("validate in.yaml = %d, want 0; stderr:\n%s", status, stderr)
	}
	if _, err := os.Stat(marker + ".inside"); err != nil {
		t.Errorf("validate of the package inside the module did not list it: %v", err)
	}
	if status, _, stderr := runCmd(t, "run", in, "--quiet"); status != exitOK {
		t.Fatalf("run in.yaml = %d; stderr:\n%s", status, stderr)
	}
	if _, err := os.Stat(marker + ".inside"); err != nil {
		t.Errorf("run of the package inside the module: %v", err)
	}
	one := filepath.Join(mod, "bench", "other.yaml")
	writeTestFile(t, one, head+"  - package: ../../other\n    include: Work\n")
	if status, _, stderr := runCmd(t, "run", "--allow-packages-outside-module", one, "--quiet"); status != exitOK {
		t.Fatalf("run --allow-packages-outside-module = %d; stderr:\n%s", status, stderr)
	}
	if _, err := os.Stat(marker + ".other"); err != nil {
		t.Errorf("--allow-packages-outside-module did not run the other module's package: %v", err)
	}
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestListingIsContained: the listing run at plan time runs a package's
// code (each selected function once at b.N = 1), so it runs in a fork's
// sandbox: a process it starts in a session of its own is killed when it
// exits, and it cannot signal the process that plans (the seccomp
// shield refuses even signal 0).
func TestListingIsContained(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end (go test -c and real forks): runs without -short")
	}
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	mod := t.TempDir()
	record := filepath.Join(mod, "record")
	t.Setenv("LIST_RECORD", record)
	writeTestFile(t, filepath.Join(mod, "go.mod"), "module example.com/escape\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(mod, "escape_test.go"), `package escape

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

func BenchmarkEscape(b *testing.B) {
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(os.Getenv("LIST_RECORD"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(f, "%d %v\n", cmd.Process.Pid, syscall.Kill(os.Getppid(), 0))
	f.Close()
	for b.Loop() {
	}
}
`)
	spec := filepath.Join(mod, "s.yaml")
	writeTestFile(t, spec, "version: 1\nname: escape\ndefaults:\n  forks: 1\n  warmup: {iterations: 0}\n  measurement: {iterations: 1, time: 1ms}\nbenchmarks:\n  - package: .\n    include: Escape\n")
	status, _, stderr := runCmd(t, "run", spec, "--quiet")
	if status != exitFail {
		t.Errorf("run = %d, want 1 (the fork's escaped process fails its run); stderr:\n%s", status, stderr)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	// The first line is the listing run's, before any fork.
	if len(lines) < 2 || !strings.HasSuffix(lines[0], " operation not permitted") {
		t.Errorf("records:\n%s\nwant the listing's first, its signal to the planning process refused (operation not permitted), then the fork's", data)
	}
	for _, line := range lines {
		var pid int
		if _, err := fmt.Sscan(line, &pid); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		// Killed once the listing (or the fork) exited; it may take a
		// moment to be reaped.
		deadline := time.Now().Add(30 * time.Second)
		for syscall.Kill(pid, 0) == nil && !zombie(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil && !zombie(pid) {
			t.Errorf("the session child %d started at b.N = 1 is alive", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}
