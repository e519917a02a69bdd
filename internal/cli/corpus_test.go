package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files of spec/testdata/bad-plan")

// registry is a fixed suite for the hostile-input corpus.
var registry = Registry{
	Benchmarks: []plan.Benchmark{
		{Name: "map.Insert", Params: map[string][]string{"keys": {"100"}, "kind": {"int", "string"}}},
		{Name: "sort.Ints", Params: map[string][]string{"size": {"10", "100"}}, IntParams: map[string]bool{"size": true}},
		{Name: "sort.Strings", Params: map[string][]string{"size": {"10"}}},
		{Name: "sqrt.Dropped"},
		{Name: "sqrt.Sunk"},
	},
	Executable: "/nonexistent/never-run",
}

// validate runs `SUITE validate path` in-process and returns its exit
// status, its stderr lines and how long it took.
func validate(t *testing.T, path string) (int, []string, time.Duration) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := Suite(context.Background(), []string{"validate", path}, registry, &stdout, &stderr)
	elapsed := time.Since(start)
	if stdout.Len() > 0 {
		t.Errorf("validate wrote to stdout:\n%s", stdout.String())
	}
	return code, strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n"), elapsed
}

// TestHostileSpecs runs every file of the corpus through the suite's
// validate command: each must exit 2 within a second and print exactly
// its golden errors, then the summary line. spec/testdata/bad holds what
// the spec parser rejects (its goldens are spec's TestBad's);
// spec/testdata/bad-plan what only a registry can reject (-update
// rewrites these goldens).
func TestHostileSpecs(t *testing.T) {
	t.Chdir("../../spec")
	var files []string
	for _, dir := range []string{"testdata/bad", "testdata/bad-plan"} {
		fs, err := filepath.Glob(dir + "/*.yaml")
		if err != nil || len(fs) == 0 {
			t.Fatalf("no specs in %s: %v", dir, err)
		}
		files = append(files, fs...)
	}
	if len(files) < 30 {
		t.Errorf("the corpus has %d files, want at least 30", len(files))
	}
	for _, path := range files {
		t.Run(path, func(t *testing.T) {
			code, lines, elapsed := validate(t, path)
			if elapsed > time.Second {
				t.Errorf("took %s; every file must be rejected within a second", elapsed)
			}
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			errs, summary := lines[:len(lines)-1], lines[len(lines)-1]
			golden := strings.TrimSuffix(path, ".yaml") + ".golden"
			if *update && strings.HasPrefix(path, "testdata/bad-plan/") {
				if err := os.WriteFile(golden, []byte(strings.Join(errs, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if diff := cmp.Diff(want, errs); diff != "" {
				t.Errorf("errors (-golden +got):\n%s", diff)
			}
			if w := spec.Summary(1, len(want)); summary != w {
				t.Errorf("summary %q, want %q", summary, w)
			}
		})
	}
}

// TestHostileGeneratedSpecs covers inputs too large to commit.
func TestHostileGeneratedSpecs(t *testing.T) {
	t.Chdir(t.TempDir())
	head := "version: 1\nname: gen\nbenchmarks:\n  - include: a\n"
	tests := []struct {
		file string
		data func() string
		want []string
	}{
		{
			file: "50MB.yaml",
			data: func() string {
				return head + "    exclude: " + strings.Repeat("abcdefghij", 5<<20) + "\n"
			},
			want: []string{"50MB.yaml:1:1: spec file too large (52428862 bytes; at most 10485760)"},
		},
		{
			file: "deep-flow.yaml",
			data: func() string {
				return "version: 1\nname: gen\nbenchmarks: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"
			},
			want: []string{"deep-flow.yaml:3:113: nesting deeper than 100 levels"},
		},
		{
			file: "deep-block.yaml",
			data: func() string {
				var b strings.Builder
				b.WriteString(head + "    env:\n")
				for i := range 2000 {
					fmt.Fprintf(&b, "%s k%d:\n", strings.Repeat(" ", 6+i), i)
				}
				return b.String()
			},
			want: []string{"deep-block.yaml:104:106: nesting deeper than 100 levels"},
		},
		{
			file: "aliases.yaml",
			data: func() string {
				return head + "x: &x [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\ny: [" + strings.Repeat("*x, ", 100000) + "]\n"
			},
			want: []string{"aliases.yaml:6:33329: spec too large: more than 100000 values after expanding aliases (an alias bomb?)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if err := os.WriteFile(tt.file, []byte(tt.data()), 0o644); err != nil {
				t.Fatal(err)
			}
			code, lines, elapsed := validate(t, tt.file)
			if elapsed > time.Second {
				t.Errorf("took %s; every file must be rejected within a second", elapsed)
			}
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if diff := cmp.Diff(tt.want, lines[:len(lines)-1]); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunRefusesBadSpec: `run` exits 2 on an invalid spec and writes no
// report.
func TestRunRefusesBadSpec(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	var stdout, stderr bytes.Buffer
	code := Suite(context.Background(), []string{"run", "../../spec/testdata/bad/many.yaml", "--out", out}, registry, &stdout, &stderr)
	if code != 2 || !strings.HasSuffix(stderr.String(), "1 file, 15 errors\n") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a report was written")
	}
	if _, err := os.Stat(out + ".journal"); err == nil {
		t.Error("a journal was written")
	}
}
