package filehash

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// A tree benchspec made in its cache — a revision's checkout, a copy of
// a module — is checked before use against the manifest written when it
// was made, as a cached binary is against its SHA-256: every regular
// file's path, SHA-256 and executable bit, and nothing else (no link, no
// device, no file added).

// Skip tells Manifest and CheckTree to leave out a file of the tree,
// by its slash-separated path relative to the root: benchspec's own
// files in it. nil leaves out none.
type Skip func(rel string) bool

// Manifest is the manifest of the tree at root: one line per regular
// file, "<sha256>[+x] <path>", sorted by path. Anything but a directory
// or a regular file is an error.
func Manifest(root string, skip Skip) ([]byte, error) {
	var lines []string
	err := walk(root, skip, func(rel, sum string) error {
		lines = append(lines, sum+" "+rel+"\n")
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "")), nil
}

// CheckTree checks the tree at root against its manifest: an error
// naming a file changed, added or removed since ("x.go was changed"), or
// one that is not a regular file.
func CheckTree(root string, manifest []byte, skip Skip) error {
	want := map[string]string{}
	for line := range strings.Lines(string(manifest)) {
		sum, path, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok {
			return fmt.Errorf("its manifest has a bad line %q", line)
		}
		want[path] = sum
	}
	err := walk(root, skip, func(rel, sum string) error {
		w, ok := want[rel]
		switch {
		case !ok:
			return fmt.Errorf("%s was added", rel)
		case w != sum:
			return fmt.Errorf("%s was changed", rel)
		}
		delete(want, rel)
		return nil
	})
	if err != nil {
		return err
	}
	var missing []string
	for path := range want {
		missing = append(missing, path)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("%s was removed", missing[0])
	}
	return nil
}

// walk calls f with the path and manifest sum of each regular file of
// the tree at root that skip does not leave out.
func walk(root string, skip Skip, f func(rel, sum string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel) {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is %s, not a regular file", rel, Kind(d.Type()))
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum, err := SHA256(path)
		if err != nil {
			return err
		}
		if fi.Mode()&0o111 != 0 {
			sum += "+x"
		}
		return f(rel, sum)
	})
}
