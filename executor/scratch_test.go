package executor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The guard removes the scratch directories of its own batch that a
// killed parent left in TMPDIR, and nothing else: not another batch's,
// not a file or symlink of a matching name (nor what the link points
// to), nothing at all for a mark that is not one newBatchMark makes.
func TestRemoveScratch(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mark, other := "123-456", "123-4567"
	var s scratchDirs
	s.prefix = scratchPrefix(mark)
	mine, err := s.take()
	if err != nil {
		t.Fatal(err)
	}
	s.prepare()
	spare := s.spare
	if !strings.HasPrefix(filepath.Base(mine), "benchspec-fork-123-456-") || filepath.Dir(mine) != tmp {
		t.Fatalf("scratch directory %s, want benchspec-fork-123-456-* in %s", mine, tmp)
	}
	// What a fork may leave in its directory: a file, a read-only
	// directory with a file in it.
	os.WriteFile(filepath.Join(mine, "out"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(mine, "ro", "d"), 0o755)
	os.WriteFile(filepath.Join(mine, "ro", "d", "f"), []byte("x"), 0o644)
	os.Chmod(filepath.Join(mine, "ro"), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(mine, "ro"), 0o755) })
	theirs := filepath.Join(tmp, scratchPrefix(other)+"1")
	os.Mkdir(theirs, 0o700)
	file := filepath.Join(tmp, scratchPrefix(mark)+"file")
	os.WriteFile(file, nil, 0o644)
	target := t.TempDir()
	os.WriteFile(filepath.Join(target, "keep"), nil, 0o644)
	link := filepath.Join(tmp, scratchPrefix(mark)+"link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}

	for _, bad := range []string{"", "*", "123-*", "123", "-456", "1/2-3", "../123-456"} {
		removeScratch(bad)
	}
	if left := names(t, tmp); len(left) != 5 {
		t.Fatalf("a bad mark removed something: %v", left)
	}
	removeScratch(mark)
	want := []string{filepath.Base(file), filepath.Base(link), filepath.Base(theirs)}
	slices.Sort(want)
	if got := names(t, tmp); !slices.Equal(got, want) {
		t.Errorf("left %v, want %v (%s and %s removed)", got, want, mine, spare)
	}
	if _, err := os.Stat(filepath.Join(target, "keep")); err != nil {
		t.Errorf("the symlink's target lost its file: %v", err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

func TestValidBatchMark(t *testing.T) {
	if m := newBatchMark(); !validBatchMark(m) {
		t.Errorf("newBatchMark's %q is not valid", m)
	}
	for _, m := range []string{"", "-", "1-", "-1", "1-2-3", "a-1", "1-*", "1-2 ", "1/2"} {
		if validBatchMark(m) {
			t.Errorf("validBatchMark(%q) = true", m)
		}
	}
}
