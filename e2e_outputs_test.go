package benchspec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec"
)

func init() {
	// e2e.marked creates $E2E_MARKER when it runs: the proof that a
	// fork ran.
	benchspec.Register("e2e.marked", func(b *benchspec.B) {
		if m := os.Getenv("E2E_MARKER"); m != "" {
			os.WriteFile(m, nil, 0o644)
		}
		for b.Loop() {
		}
	})
	benchspec.Register("e2e.param", func(b *benchspec.B) {
		for b.Loop() {
		}
	}, benchspec.Params{"p": {"a/b"}})
}

const oneFork = `version: 1
name: e2e
defaults:
  forks: 1
  warmup:      {iterations: 1, time: 5ms}
  measurement: {iterations: 1, time: 5ms}
  timeout: 20s
benchmarks:
  - include: e2e.marked
`

// markedSpec writes oneFork as dir/q.yaml and points E2E_MARKER at
// dir/ran; it returns both paths.
func markedSpec(t *testing.T, dir string) (spec, marker string) {
	t.Helper()
	spec, marker = filepath.Join(dir, "q.yaml"), filepath.Join(dir, "ran")
	if err := os.WriteFile(spec, []byte(oneFork), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("E2E_MARKER", marker)
	return spec, marker
}

// TestReportWriteFailureKeepsJournal: an --out that cannot be written
// is refused before any fork runs when that can be known (a directory, a
// directory that does not exist, a link into one); when it fails only at
// report time (/dev/full), the batch exits 2, its implicit journal is
// kept and named, and resuming it writes the report without measuring
// again.
func TestReportWriteFailureKeepsJournal(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // the journal of a device's report is SUITE.journal here
	spec, marker := markedSpec(t, dir)
	if err := os.Symlink(filepath.Join(dir, "missing", "r.json"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{dir, "is a directory"},
		{filepath.Join(dir, "missing", "r.json"), "does not exist"},
		{filepath.Join(dir, "dangling"), "is a symbolic link"},
	} {
		r := suite(t, "run", spec, "--quiet", "--out", c.out)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.out) || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("run --out %s = %d, want 2 and %q naming it; stderr:\n%s", c.out, r.Code, c.want, r.Stderr)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("run --out %s ran a fork before refusing its output", c.out)
		}
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full:", err)
	}
	r := suite(t, "run", spec, "--quiet", "--out", "/dev/full")
	journal := filepath.Join(dir, "e2e.journal")
	if r.Code != 2 || !strings.Contains(r.Stderr, "writing the report") || !strings.Contains(r.Stderr, "--resume e2e.journal") {
		t.Errorf("run --out /dev/full = %d, want 2 naming the kept journal; stderr:\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(journal); err != nil {
		t.Fatalf("the journal of a batch whose report was lost is gone: %v", err)
	}
	os.Remove(marker)
	out := filepath.Join(dir, "r.json")
	r = suite(t, "run", "--resume", journal, "--quiet", "--format", "json", "--out", out)
	if r.Code != 0 {
		t.Fatalf("run --resume of the kept journal = %d; stderr:\n%s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("resuming a complete journal ran a fork again")
	}
	rep, _ := readReport(t, out)
	if !rep.Complete || len(rep.Runs) != 1 || rep.Runs[0].Status != "ok" {
		t.Errorf("the resumed report: complete %v, %d runs, want the batch's one ok run", rep.Complete, len(rep.Runs))
	}

	// With --results-dir, the results directory's report is written
	// though --out is not, and its journal is the one named.
	results := filepath.Join(dir, "results")
	r = suite(t, "run", spec, "--quiet", "--out", "/dev/full", "--results-dir", results)
	latest := filepath.Join(results, "e2e", "latest.json")
	if r.Code != 2 || !strings.Contains(r.Stderr, "--resume "+filepath.Join(results, "e2e")) {
		t.Errorf("run --out /dev/full --results-dir = %d, want 2 naming the results directory's journal; stderr:\n%s", r.Code, r.Stderr)
	}
	if rep, _ := readReport(t, latest); len(rep.Runs) != 1 {
		t.Errorf("the results directory's report has %d runs, want 1", len(rep.Runs))
	}
}

// TestOutputMayNotOverwriteAnInput: run refuses, before anything runs
// and with exit 2, an --out or --journal that is the spec (also through
// a symbolic link), the suite binary, or the other output.
func TestOutputMayNotOverwriteAnInput(t *testing.T) {
	dir := t.TempDir()
	spec, marker := markedSpec(t, dir)
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(spec, link); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(dir, "x")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", spec}, "is the spec"},
		{[]string{"--out", link}, "is a symbolic link"},
		{[]string{"--journal", spec}, "is the spec"},
		{[]string{"--out", filepath.Join(dir, ".", "q.yaml")}, "is the spec"},
		{[]string{"--out", x, "--journal", x}, "are the same file"},
		{[]string{"--out", exe}, "is the suite binary"},
	} {
		r := suite(t, append([]string{"run", spec, "--quiet"}, c.args...)...)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("run %s = %d, want 2 and %q; stderr:\n%s", strings.Join(c.args, " "), r.Code, c.want, r.Stderr)
		}
		if data, err := os.ReadFile(spec); err != nil || string(data) != oneFork {
			t.Fatalf("run %s changed the spec (%v):\n%s", strings.Join(c.args, " "), err, data)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("run %s ran a fork before refusing its output", strings.Join(c.args, " "))
		}
	}
}

// TestProfileNamesDoNotCollide: params a/b, a_b and a:b, whose run keys
// differ only in characters a file name cannot hold as they are, get a
// cpu and a heap profile each, all six files distinct and present.
func TestProfileNamesDoNotCollide(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, strings.Replace(oneFork, "  - include: e2e.marked\n", `  - include: '^e2e\.param$'
    params: {p: ["a/b", "a_b", "a:b"]}
    profilers: [cpu, heap]
`, 1))
	out, prof := filepath.Join(dir, "r.json"), filepath.Join(dir, "prof")
	r := suite(t, "run", spec, "--quiet", "--format", "json", "--out", out, "--profiles", prof)
	if r.Code != 0 {
		t.Fatalf("run = %d; stderr:\n%s", r.Code, r.Stderr)
	}
	rep, _ := readReport(t, out)
	files := map[string]string{}
	for _, run := range rep.Runs {
		for _, f := range run.Forks {
			for kind, path := range f.Profiles {
				if other, ok := files[path]; ok {
					t.Errorf("%s and %s both list %s", other, run.Key, path)
				}
				files[path] = run.Key + " " + kind
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s's %s profile: %v", run.Key, kind, err)
				}
			}
		}
	}
	if len(rep.Runs) != 3 || len(files) != 6 {
		t.Errorf("%d runs listed %d profile files, want 3 and 6: %v", len(rep.Runs), len(files), files)
	}
	if on, _ := os.ReadDir(prof); len(on) != 6 {
		t.Errorf("%s holds %d files, want 6", prof, len(on))
	}
}
