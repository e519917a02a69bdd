package forkimage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestCopyImage(t *testing.T) {
	src := filepath.Join(t.TempDir(), "suite")
	data := bytes.Repeat([]byte("benchspec\x00"), writeSize/10*2+7) // more than two writes
	if err := os.WriteFile(src, data, 0o755); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	img, err := Copy(src, parent)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(img.Dir) != parent || img.Path != filepath.Join(img.Dir, "suite") {
		t.Fatalf("image %+v; want suite in a new directory of %s", img, parent)
	}
	got, err := os.ReadFile(img.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("the copy has %d bytes, not the original's %d", len(got), len(data))
	}
	if fi, err := os.Stat(img.Path); err != nil || fi.Mode().Perm() != 0o500 {
		t.Fatalf("the copy's mode: %v %v; want -r-x------", fi.Mode(), err)
	}
	img.Remove()
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Fatalf("%d entries left after remove", len(left))
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("the original is gone: %v", err)
	}
}

// Where the copy cannot be made, the forks run the original, and
// removing the image leaves the original alone.
func TestForkImageFallsBack(t *testing.T) {
	src := filepath.Join(t.TempDir(), "suite")
	if err := os.WriteFile(src, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	img := New(src)
	if img.Path != src || img.Dir != "" {
		t.Fatalf("image %+v without a usable TMPDIR; want the original %s", img, src)
	}
	img.Remove()
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("the original is gone: %v", err)
	}
	// A directory is not copied.
	parent := t.TempDir()
	if _, err := Copy(t.TempDir(), parent); err == nil {
		t.Fatal("copyImage of a directory: no error")
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Fatalf("%d entries left after a failed copy", len(left))
	}
}
