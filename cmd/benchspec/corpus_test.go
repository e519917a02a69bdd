package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// TestValidateHostileSpecs: `benchspec validate` rejects every file of
// the spec corpus within a second, exit 2, with its golden errors and the
// summary line; all of them at once in one call, too.
func TestValidateHostileSpecs(t *testing.T) {
	t.Chdir("../../spec")
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(files) < 30 {
		t.Fatalf("%d bad specs: %v", len(files), err)
	}
	var all []string
	for _, path := range files {
		data, err := os.ReadFile(strings.TrimSuffix(path, ".yaml") + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		all = append(all, want...)
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run([]string{"validate", path}, &stdout, &stderr)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %s, want under a second", path, d)
		}
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if code != exitUsage || lines[len(lines)-1] != spec.Summary(1, len(want)) {
			t.Errorf("%s: exit %d, last line %q; want 2 and the summary", path, code, lines[len(lines)-1])
		}
		if diff := cmp.Diff(want, lines[:len(lines)-1]); diff != "" {
			t.Errorf("%s: errors (-golden +got):\n%s", path, diff)
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"validate"}, files...), &stdout, &stderr)
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if code != exitUsage || len(lines) != len(all)+1 {
		t.Errorf("all at once: exit %d, %d lines; want 2 and %d errors and the summary", code, len(lines), len(all))
	}
}
