package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValidateOutput: validate prints every problem of every file, or
// "path: ok (N entries)", in the order given, then a summary; with a
// registry, the plan's size after.
func TestValidateOutput(t *testing.T) {
	t.Chdir("../../../../spec")
	validate := func(reg *Registry, paths ...string) (int, []string) {
		var stdout, stderr bytes.Buffer
		var r Registry
		if reg != nil {
			r = *reg
		}
		code := Validate(context.Background(), &Env{Prog: "p", Cmd: "validate", Stdout: &stdout, Stderr: &stderr}, paths, r)
		if stdout.Len() > 0 {
			t.Errorf("validate wrote to stdout: %q", stdout.String())
		}
		return code, strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	}
	code, lines := validate(nil, "testdata/good/design.yaml", "testdata/good/full.yaml", "testdata/good/minimal.yaml")
	want := []string{
		"testdata/good/design.yaml: ok (1 entry)",
		"testdata/good/full.yaml: ok (2 entries)",
		"testdata/good/minimal.yaml: ok (1 entry)",
		"3 files, 0 errors",
	}
	if diff := cmp.Diff(want, lines); code != 0 || diff != "" {
		t.Errorf("good files: exit %d, output (-want +got):\n%s", code, diff)
	}
	code, lines = validate(nil, "testdata/good/minimal.yaml", "testdata/bad/duplicate.yaml", "testdata/nonexistent.yaml")
	want = []string{
		"testdata/good/minimal.yaml: ok (1 entry)",
		`testdata/bad/duplicate.yaml:5:3: duplicate key "forks" (first defined at line 4, column 3)`,
		`testdata/bad/duplicate.yaml:8:5: duplicate key "include" (first defined at line 7, column 5)`,
		"read spec: open testdata/nonexistent.yaml: no such file or directory",
		"3 files, 3 errors",
	}
	if diff := cmp.Diff(want, lines); code != 2 || diff != "" {
		t.Errorf("good and bad files: exit %d, output (-want +got):\n%s", code, diff)
	}
	// What only a registry knows is reported under the file it is in;
	// the valid file is still ok.
	code, lines = validate(&registry, "testdata/good/minimal.yaml", "testdata/bad-plan/unmatched_include.yaml")
	if code != 2 || lines[0] != "testdata/good/minimal.yaml: ok (1 entry)" || !strings.HasPrefix(lines[1], "testdata/bad-plan/unmatched_include.yaml:") ||
		lines[len(lines)-1] != "2 files, "+plural(len(lines)-2, "error", "errors") {
		t.Errorf("with a registry: exit %d, output:\n%s", code, strings.Join(lines, "\n"))
	}
}
