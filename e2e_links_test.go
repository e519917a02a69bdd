package benchspec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunNeverWritesThroughALink (issue 36, class A): run refuses, exit
// 2 and before any fork runs, a results directory whose latest.json is a
// symbolic link (a planted latest.json -> ~/.bashrc would have the next
// nightly batch replace the file it points to), an --out that is a link,
// and an --out that is a spec of a spec directory it runs; what the
// links point to is left as it was.
func TestRunNeverWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	spec, marker := markedSpec(t, dir)
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results")
	latest := filepath.Join(results, "e2e", "latest.json")
	if err := os.MkdirAll(filepath.Dir(latest), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.json")
	for _, l := range []string{latest, link} {
		if err := os.Symlink(victim, l); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--results-dir", results}, latest + " is a symbolic link"},
		{[]string{"--out", link}, "--out " + link + " is a symbolic link (to " + victim + ")"},
		{[]string{"--journal", link}, "--journal " + link + " is a symbolic link"},
		{[]string{"--out", spec, "--format", "json"}, "is the spec"},
	} {
		r := suite(t, append([]string{"run", filepath.Dir(spec), "--quiet"}, c.args...)...)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("run %s = %d, want 2 and %q; stderr:\n%s", strings.Join(c.args, " "), r.Code, c.want, r.Stderr)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("run %s ran a fork before refusing its output", strings.Join(c.args, " "))
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "mine\n" {
		t.Errorf("a link's target was written: %q", data)
	}
	if data, err := os.ReadFile(spec); err != nil || string(data) != oneFork {
		t.Errorf("the spec was changed (%v)", err)
	}
	if left, _ := filepath.Glob(filepath.Join(results, "e2e", "*.journal")); len(left) > 0 {
		t.Errorf("the refused batch left %v in the results directory", left)
	}
}
