package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// specFiles expands the spec arguments of run, validate and plan: a
// directory stands for the *.yaml files directly inside it, sorted by
// name (a nightly batch keeps its specs in one directory); anything else
// is a spec file, whose problems spec.ParseFile reports. A file named
// twice, directly or through its directory, counts once, at its first
// place. The specs' order is the plan's order.
func specFiles(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(path string) {
		if key := filepath.Clean(path); !seen[key] {
			seen[key] = true
			out = append(out, path)
		}
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil || !fi.IsDir() {
			add(arg)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(arg, "*.yaml"))
		if err != nil {
			return nil, err
		}
		var files []string
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && !fi.IsDir() {
				files = append(files, m)
			}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: a directory without spec files (*.yaml)", arg)
		}
		sort.Strings(files)
		for _, f := range files {
			add(f)
		}
	}
	return out, nil
}
