package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCacheCommandShowsPrunesAndClears(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	for i, name := range []string{"new.test", "old.test"} {
		os.WriteFile(filepath.Join(cache, name+".sha256"), []byte(strings.Repeat("0", 64)), 0o644) // recorded as built by benchspec
		p := filepath.Join(cache, name)
		if err := os.WriteFile(p, make([]byte, 1000), 0o755); err != nil {
			t.Fatal(err)
		}
		age := time.Duration(i) * 48 * time.Hour
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	status, out, _ := runCmd(t, "cache", "--dir", cache)
	if status != exitOK || !strings.Contains(out, "new.test") || !strings.Contains(out, "old.test") || !strings.Contains(out, "2 test binaries, 2.0 KiB") {
		t.Errorf("cache = %d:\n%s\nwant both binaries and their total", status, out)
	}
	if !strings.Contains(out, "\n    Size  Last used         Binary\n  1000 B  ") {
		t.Errorf("cache lists:\n%s\nwant a table with a header, sizes right-aligned", out)
	}
	if strings.Index(out, "new.test") > strings.Index(out, "old.test") {
		t.Errorf("cache lists:\n%s\nwant the most recently used first", out)
	}
	status, out, _ = runCmd(t, "cache", "prune", "--max-age", "1d", "--dir", cache)
	if status != exitOK || !strings.Contains(out, "removed 1 test binaries (1000 B)") {
		t.Errorf("prune = %d: %s", status, out)
	}
	if _, err := os.Stat(filepath.Join(cache, "old.test")); !os.IsNotExist(err) {
		t.Errorf("old.test survived the prune: %v", err)
	}
	status, out, _ = runCmd(t, "cache", "clear", "--dir", cache)
	if left, _ := filepath.Glob(filepath.Join(cache, "*.test")); status != exitOK || len(left) != 0 {
		t.Errorf("clear = %d (%s), left %v", status, out, left)
	}
	for _, bad := range [][]string{{"cache", "purge"}, {"cache", "prune", "--max-size", "lots"}, {"cache", "--max-age", "1d"}} {
		if status, _, stderr := runCmd(t, append(bad, "--dir", cache)...); status != exitUsage || stderr == "" {
			t.Errorf("%v = %d, stderr %q; want 2 and why", bad, status, stderr)
		}
	}
}
