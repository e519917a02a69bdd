package index

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHistoryRefusesNonRegularReports: anything named like a report
// that is not a regular file — a FIFO, a link to /dev/zero, a link
// loop, a directory, even a link to a good report — is an error naming
// it, as a garbage regular file is, and a FIFO is never opened for
// reading (which would block); the index in a FIFO's place is ignored,
// without blocking either.
func TestHistoryRefusesNonRegularReports(t *testing.T) {
	const bad = "20260116T023000Z.json"
	cases := map[string]func(path string) error{
		"a FIFO":            func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"a symbolic link":   func(p string) error { return os.Symlink("/dev/zero", p) },
		"a link loop":       func(p string) error { return os.Symlink(filepath.Base(p), p) },
		"a directory":       func(p string) error { return os.Mkdir(p, 0o755) },
		"a link to reports": func(p string) error { return os.Symlink("20260115T023000Z.json", p) },
	}
	for name, create := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeReport(t, dir, "20260115T023000Z.json", 10, night0)
			if err := create(filepath.Join(dir, bad)); err != nil {
				t.Skip(err)
			}
			err := loadWithin(t, dir)
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, bad)) || !strings.Contains(err.Error(), "named like a report") {
				t.Errorf("Load with %s named like a report: %v, want an error naming it", name, err)
			}
			if direct := readWithin(t, filepath.Join(dir, bad)); direct == nil {
				t.Errorf("ReadReport of %s: no error", name)
			}
		})
	}
	t.Run("a FIFO for an index", func(t *testing.T) {
		dir := t.TempDir()
		writeReport(t, dir, "20260115T023000Z.json", 10, night0)
		if err := syscall.Mkfifo(filepath.Join(dir, Name), 0o644); err != nil {
			t.Skip(err)
		}
		if err := loadWithin(t, dir); err != nil {
			t.Errorf("Load with a FIFO as its index: %v, want the reports read", err)
		}
	})
}

// loadWithin is Load(dir), failing the test when it blocks.
func loadWithin(t *testing.T, dir string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, _, err := Load(dir); done <- err }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("Load(%s) blocked", dir)
		return nil
	}
}

func readWithin(t *testing.T, path string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, err := ReadReport(path); done <- err }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("ReadReport(%s) blocked", path)
		return nil
	}
}

// TestIndexEditedWithSizeAndMtimeKeptIsNotTrusted: a report edited in
// place, its size kept and its modification time set back, is read
// again rather than shown by its stale index entry.
func TestIndexEditedWithSizeAndMtimeKeptIsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	name := "20260115T023000Z.json"
	writeReport(t, dir, name, 10, night0)
	entries, _ := mustLoad(t, dir)
	saveIndex(t, dir, entries)
	if _, stale := mustLoad(t, dir); stale {
		t.Fatal("a fresh index is stale")
	}
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	edited := strings.Replace(string(data), `"score":10,`, `"score":90,`, 1)
	if edited == string(data) {
		t.Fatalf("no score 10 in the report:\n%s", data)
	}
	time.Sleep(20 * time.Millisecond)           // past the file system clock's tick: a change time the edit moves
	f, err := os.OpenFile(path, os.O_WRONLY, 0) // in place: same inode
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(edited), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, night0, night0); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(path); after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("the edit changed size or mtime: %v %v → %v %v", before.Size(), before.ModTime(), after.Size(), after.ModTime())
	}
	// The report is read again, not its stale summary: and read, it
	// contradicts its own raw data (report.Read's check), which is an
	// error naming the file, never the old value.
	entries, _, err = Load(dir)
	if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "score 90") {
		t.Errorf("after the edit: scores %v, error %v; want the edited report read again and refused", scores(entries), err)
	}
}
