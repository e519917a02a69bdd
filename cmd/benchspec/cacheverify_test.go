package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTamperedCachedBinaryDoesNotRun: a test binary in benchspec's
// cache replaced by something else (here a script, as a poisoned shared
// cache would hold) is not run: it fails the check against the SHA-256
// recorded when benchspec built it, and is built again — found through
// the cache's index, and found by its name when the index is gone.
func TestTamperedCachedBinaryDoesNotRun(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end (go test -c and real forks): runs without -short")
	}
	cache := t.TempDir()
	t.Setenv("BENCHSPEC_CACHE", cache)
	mod := t.TempDir()
	writeTestFile(t, filepath.Join(mod, "go.mod"), "module example.com/tamper\n\ngo 1.24\n")
	writeTestFile(t, filepath.Join(mod, "tamper_test.go"), `package tamper

import "testing"

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
	}
}
`)
	spec := filepath.Join(mod, "spec.yaml")
	writeTestFile(t, spec, "version: 1\nname: tamper\ndefaults:\n  forks: 1\n  warmup: {iterations: 1, time: 1ms}\n  measurement: {iterations: 1, time: 1ms}\nbenchmarks:\n  - package: .\n    include: Work\n")
	marker := filepath.Join(mod, "script-ran")
	script := "#!/bin/sh\ntouch " + marker + "\nexit 0\n"

	run := func(when string) {
		t.Helper()
		if status, _, stderr := runCmd(t, "run", spec, "--quiet"); status != exitOK {
			t.Fatalf("%s: run = %d; stderr:\n%s", when, status, stderr)
		}
	}
	binary := func() string {
		t.Helper()
		bins, _ := filepath.Glob(filepath.Join(cache, "*.test"))
		if len(bins) != 1 {
			t.Fatalf("the cache holds %v, want one test binary", bins)
		}
		return bins[0]
	}
	tamper := func() {
		t.Helper()
		if err := os.WriteFile(binary(), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	isBuilt := func(when string) {
		t.Helper()
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: the script put in the cache ran", when)
		}
		if data, err := os.ReadFile(binary()); err != nil || !bytes.HasPrefix(data, []byte("\x7fELF")) {
			t.Errorf("%s: the cached binary is not a built one again (%v): %.20q", when, err, data)
		}
	}

	run("first run")
	tamper()
	run("binary replaced")
	isBuilt("binary replaced, index kept")

	if err := os.RemoveAll(filepath.Join(cache, "index")); err != nil {
		t.Fatal(err)
	}
	tamper()
	run("binary replaced, index gone")
	isBuilt("binary replaced, index gone")
}

// TestCacheClearDeletesOnlyItsOwn: cache clear and prune delete only
// the test binaries benchspec recorded as its own (a *.test with its
// SHA-256 record), never another *.test, a link or what it links to,
// and not at all in a cache given as a symbolic link.
func TestCacheClearDeletesOnlyItsOwn(t *testing.T) {
	root := t.TempDir()
	cache := filepath.Join(root, "cache")
	elsewhere := filepath.Join(root, "project")
	for _, d := range []string{cache, elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	own := filepath.Join(cache, "own-0123456789abcdef.test")
	write(own, "built")
	write(own+".sha256", strings.Repeat("ab", 32)+"\n")
	stranger := filepath.Join(cache, "stranger.test")
	write(stranger, "the user's")
	victim := filepath.Join(elsewhere, "victim.test")
	write(victim, "the user's")
	write(victim+".sha256", strings.Repeat("cd", 32)+"\n")
	if err := os.Symlink(victim, filepath.Join(cache, "link.test")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim+".sha256", filepath.Join(cache, "link.test.sha256")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "cachelink")); err != nil {
		t.Fatal(err)
	}
	// The cache's own subdirectories, as links to the user's: pruning
	// and clearing must not delete in them.
	userIndex, userModule := filepath.Join(elsewhere, "idx", "user.json"), filepath.Join(elsewhere, "mods", "old")
	for _, d := range []string{filepath.Dir(userIndex), userModule} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(userIndex, "{}")
	old := time.Now().Add(-72 * time.Hour)
	os.Chtimes(userModule, old, old)
	if err := os.Symlink(filepath.Dir(userIndex), filepath.Join(cache, "index")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(userModule), filepath.Join(cache, "modules")); err != nil {
		t.Fatal(err)
	}
	aged := filepath.Join(cache, "aged-0123456789abcdef.test")
	write(aged, "built")
	write(aged+".sha256", strings.Repeat("ef", 32)+"\n")
	os.Chtimes(aged, old, old)

	status, out, stderr := runCmd(t, "cache", "clear", "--dir", filepath.Join(root, "cachelink"))
	if status != exitUsage || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("cache clear of a linked directory = %d (%s), stderr %q; want 2 and why", status, out, stderr)
	}
	status, out, stderr = runCmd(t, "cache", "prune", "--max-age", "0s", "--max-size", "1", "--dir", filepath.Join(root, "cachelink"))
	if status != exitUsage || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("cache prune of a linked directory = %d (%s), stderr %q; want 2 and why", status, out, stderr)
	}
	status, out, stderr = runCmd(t, "cache", "prune", "--max-age", "1d", "--dir", cache)
	if status != exitOK || !strings.Contains(out, "removed 1 test binaries") {
		t.Errorf("cache prune = %d (%s), stderr %q; want its one aged binary removed", status, out, stderr)
	}
	status, out, stderr = runCmd(t, "cache", "clear", "--dir", cache)
	if status != exitOK || !strings.Contains(out, "removed 1 test binaries") {
		t.Errorf("cache clear = %d (%s), stderr %q; want its one binary removed", status, out, stderr)
	}
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Errorf("cache clear left its own binary: %v", err)
	}
	for _, keep := range []string{stranger, victim, victim + ".sha256", filepath.Join(cache, "link.test"), userIndex, userModule} {
		if _, err := os.Lstat(keep); err != nil {
			t.Errorf("cache clear deleted %s, which it did not build: %v", keep, err)
		}
	}
}
