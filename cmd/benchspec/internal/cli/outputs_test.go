package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputMayNotOverwriteAnInputPaths: CheckOverwrite compares the
// files paths resolve to — through a symbolic link to the file or to
// its directory, a path with . and .., one not yet created — and leaves
// devices alone (/dev/null is written in place, replacing nothing).
func TestOutputMayNotOverwriteAnInputPaths(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "q.yaml")
	if err := os.WriteFile(spec, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	in := []NamedPath{{"the spec", spec}, {"none", ""}}
	for _, out := range []string{spec, filepath.Join(dir, "d", "q.yaml"), dir + "/d/../" + filepath.Base(dir) + "/q.yaml"} {
		if err := CheckOverwrite(in, []NamedPath{{"--out", out}}); err == nil || !strings.Contains(err.Error(), "is the spec") {
			t.Errorf("--out %s: %v, want it refused as the spec", out, err)
		}
	}
	fresh := filepath.Join(dir, "new.json")
	if err := CheckOverwrite(in, []NamedPath{{"--out", fresh}, {"--journal", filepath.Join(dir, "d", "new.json")}}); err == nil || !strings.Contains(err.Error(), "same file") {
		t.Errorf("two outputs, one file not yet created: %v, want refused", err)
	}
	if err := CheckOverwrite(in, []NamedPath{{"--out", fresh}, {"--journal", fresh + ".journal"}}); err != nil {
		t.Errorf("distinct outputs: %v", err)
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		if err := CheckOverwrite([]NamedPath{{"an input", "/dev/null"}}, []NamedPath{{"--out", "/dev/null"}}); err != nil {
			t.Errorf("/dev/null in and out: %v; a device is written in place, not replaced", err)
		}
	}
	if err := CheckOutputPath("--out", filepath.Join(dir, "missing", "r.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("--out in a missing directory: %v", err)
	}
	if err := CheckOutputPath("--out", dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("--out a directory: %v", err)
	}
	if err := CheckOutputPath("--out", fresh); err != nil {
		t.Errorf("--out a new file: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if err := checkRunOutputs(in, "", fifo, ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("--journal a FIFO: %v, want refused (it would be replaced)", err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".benchspec-probe-*")); len(left) > 0 {
		t.Errorf("the writability probe left %v", left)
	}
}
