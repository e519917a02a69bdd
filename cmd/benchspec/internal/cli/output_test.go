package cli

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// TestWriteOutputReplacesRegularFiles: a regular file (or a new path) is
// replaced whole, keeping its permissions, and a failed write leaves the
// old file and no temporary file behind.
func TestWriteOutputReplacesRegularFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := WriteOutput(path, nil, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: %v, %v; want mode 0644", fi.Mode(), err)
	}
	os.Chmod(path, 0o600)
	if err := WriteOutput(path, nil, writeString("second\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "second\n" {
		t.Errorf("content %q, want the second write", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", fi.Mode())
	}
	boom := errors.New("boom")
	err := WriteOutput(path, nil, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the write's", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "second\n" {
		t.Errorf("after a failed write: content %q, want the old file", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d files, want only r.txt (no temporary file left)", len(entries))
	}
}

// TestWriteOutputRefusesLinks: a symbolic link where an output goes —
// to a file, to nothing, to a device — is refused, by the check before
// the command runs and by the write itself, and neither the link nor
// what it points to changes; a link through /proc (/dev/stdout) is
// written in place.
func TestWriteOutputRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	for name, to := range map[string]string{"file": "real.txt", "nothing": filepath.Join(dir, "missing"), "device": "/dev/null"} {
		link := filepath.Join(dir, "link-to-"+name)
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		if err := WriteOutput(link, nil, writeString("new")); err == nil || !strings.Contains(err.Error(), "is a symbolic link (to "+to+")") {
			t.Errorf("WriteOutput through a link to %s: %v, want it refused naming the link's target", name, err)
		}
		if err := CheckOutputs(nil, []NamedPath{{"--out", link}}); err == nil || !strings.Contains(err.Error(), "--out "+link+" is a symbolic link") {
			t.Errorf("CheckOutputs of a link to %s: %v, want it refused", name, err)
		}
		if got, err := os.Readlink(link); err != nil || got != to {
			t.Errorf("the link to %s is now %q, %v", name, got, err)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "old" {
		t.Errorf("the link's target holds %q, want it untouched", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("a write through a dangling link created its target")
	}
	if IsReplaced(filepath.Join(dir, "link-to-file")) {
		t.Errorf("IsReplaced of a link: true, want false")
	}
	if _, err := os.Stat("/dev/stdout"); err == nil {
		if err := CheckOutputs(nil, []NamedPath{{"--out", "/dev/stdout"}}); err != nil {
			t.Errorf("--out /dev/stdout: %v; a link through /proc is written in place", err)
		}
	}
}

// TestWriteOutputWritesToDevices: a device is written to, never replaced,
// and a device that cannot take the data (/dev/full) is an error. As
// root, replacing /dev/null with a regular file would succeed; this runs
// as root in CI.
func TestWriteOutputWritesToDevices(t *testing.T) {
	requireDevices(t, "/dev/null", "/dev/full")
	if err := WriteOutput("/dev/null", nil, writeString("x")); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
	err := WriteOutput("/dev/full", nil, writeString(strings.Repeat("x", 100)))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("/dev/full: err = %v, want ENOSPC", err)
	}
	for _, dev := range []string{"/dev/null", "/dev/full"} {
		if fi, err := os.Stat(dev); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("%s is no longer a character device: %v, %v", dev, fi.Mode(), err)
		}
	}
	if IsReplaced("/dev/null") || IsReplaced("/dev/stdout") || !IsReplaced(filepath.Join(t.TempDir(), "new.json")) {
		t.Errorf("IsReplaced: /dev/null %v, /dev/stdout %v, a new path %v; want false, false, true",
			IsReplaced("/dev/null"), IsReplaced("/dev/stdout"), IsReplaced(filepath.Join(t.TempDir(), "new.json")))
	}
}

// TestWriteOutputWritesToFIFOs: a FIFO is written to (a reader gets the
// data) and stays a FIFO.
func TestWriteOutputWritesToFIFOs(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens it
		if err != nil {
			got <- err.Error()
			return
		}
		data, _ := io.ReadAll(f)
		f.Close()
		got <- string(data)
	}()
	if err := WriteOutput(fifo, nil, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("fifo is now %v, %v; want a FIFO", fi.Mode(), err)
	}
}

// requireDevices skips a test whose devices are not character devices:
// on a shared machine, a program that replaced /dev/null with a regular
// file (as benchspec once did, run as root) breaks the premise, and
// writing to the file would only keep it a file.
func requireDevices(t *testing.T, devs ...string) {
	t.Helper()
	for _, dev := range devs {
		if fi, err := os.Stat(dev); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Skipf("%s is not a character device on this machine (%v): cannot check writing to devices", dev, err)
		}
	}
}
