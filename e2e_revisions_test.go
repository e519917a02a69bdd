package benchspec_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/suitetest"
)

// abSpec is a spec of one cheap registered benchmark for ab: two pairs.
const abSpec = `version: 1
name: ab
defaults:
  forks: 2
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 1ms}
benchmarks:
  - include: '^strings\.Repeat$'
`

// benchspecIn runs the benchspec program with args in dir, with env
// added, and returns its stdout, stderr and exit status.
func benchspecIn(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	cmd := exec.Command(parent, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("benchspec %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), 0
}

// abForks is the number of forks of each side's runs that did not fail,
// from ab's JSON output.
func abForks(t *testing.T, out string) (base, next int) {
	t.Helper()
	var got struct {
		Base, New struct {
			Runs []struct {
				Error string
				Forks []struct{ PID int }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, r := range got.Base.Runs {
		if r.Error == "" {
			base += len(r.Forks)
		}
	}
	for _, r := range got.New.Runs {
		if r.Error == "" {
			next += len(r.Forks)
		}
	}
	return base, next
}

// ab of two suite binaries named by relative paths runs their forks:
// the paths are made absolute before a fork starts elsewhere.
func TestABOfRelativeSuiteBinaries(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "old"), "./examples/quickstart")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "old"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "new"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ab.yaml"), []byte(abSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := benchspecIn(t, dir, []string{"BENCHSPEC_CACHE=" + t.TempDir()},
		"ab", "--quiet", "--base", "./old", "--new", "./new", "--format", "json", "--threshold", "50%", "ab.yaml")
	if code != 0 {
		t.Fatalf("ab --base ./old --new ./new: exit %d, want 0\n%s", code, stderr)
	}
	if a, b := abForks(t, out); a != 2 || b != 2 {
		t.Errorf("forks that ran: base %d, new %d; want 2 each\n%s", a, b, stderr)
	}
}
