package filehash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckTree: a tree checks against its own manifest, skipped files
// aside; each change is named: content, executable bit, a file added,
// one removed, a link.
func TestCheckTree(t *testing.T) {
	for _, c := range []struct {
		name, want string
		change     func(dir string) error
	}{
		{"none", "", func(string) error { return nil }},
		{"skipped", "", func(d string) error { return os.WriteFile(filepath.Join(d, "own"), nil, 0o644) }},
		{"content", "a/x was changed", func(d string) error { return os.WriteFile(filepath.Join(d, "a", "x"), []byte("y"), 0o644) }},
		{"mode", "a/x was changed", func(d string) error { return os.Chmod(filepath.Join(d, "a", "x"), 0o755) }},
		{"added", "a/z was added", func(d string) error { return os.WriteFile(filepath.Join(d, "a", "z"), nil, 0o644) }},
		{"removed", "a/x was removed", func(d string) error { return os.Remove(filepath.Join(d, "a", "x")) }},
		{"link", "l is a symbolic link, not a regular file", func(d string) error { return os.Symlink("a/x", filepath.Join(d, "l")) }},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a", "x"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		skip := func(rel string) bool { return rel == "own" }
		m, err := Manifest(dir, skip)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.change(dir); err != nil {
			t.Fatal(err)
		}
		switch err := CheckTree(dir, m, skip); {
		case err == nil && c.want != "":
			t.Errorf("%s: no error, want %q", c.name, c.want)
		case err != nil && (c.want == "" || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
