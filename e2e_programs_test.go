package benchspec_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/suitetest"
)

// The benchspec program runs a suite named as a package: it builds the
// suite (into its cache), lists its benchmarks and runs its forks; a
// suite binary's own command line renders HTML, which only the program
// links.
func TestProgramBuildsSuitesAndRendersHTML(t *testing.T) {
	suitetest.SkipShort(t)
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	cache := t.TempDir()
	spec := writeSpec(t, `version: 1
name: built
defaults:
  forks: 1
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 10ms}
benchmarks:
  - include: '^strings\.Repeat$'
`)
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(parent, "run", "--suite", "./examples/quickstart", "--quiet", "--format", "json", "--out", out, spec)
	cmd.Env = append(os.Environ(), "BENCHSPEC_CACHE="+cache)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("benchspec run --suite ./examples/quickstart: %v\n%s", err, b)
	}
	rep, _ := readReport(t, out)
	if len(rep.Runs) != 1 || rep.Runs[0].Failed() || rep.Runs[0].Benchmark != "strings.Repeat" {
		t.Fatalf("runs: %+v", rep.Runs)
	}
	built, _ := filepath.Glob(filepath.Join(cache, "suite-quickstart-*.test"))
	if len(built) != 1 {
		t.Errorf("the cache holds %v, want the one suite binary it built", built)
	}

	html := filepath.Join(t.TempDir(), "r.html")
	r := suite(t, "run", writeSpec(t, quick+"  - include: '^e2e\\.empty$'\n    forks: 1\n"), "--quiet", "--format", "html", "--out", html)
	if r.Code != 0 {
		t.Fatalf("SUITE run --format html: exit %d\n%s", r.Code, r.Stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "<svg") || !strings.Contains(string(page), "e2e.empty") {
		t.Errorf("the page (%v) has no chart of e2e.empty:\n%.300s", err, page)
	}
}

// A suite binary that finds no benchspec program says how to get one,
// with exit status 2.
func TestSuiteWithoutProgramSaysHowToGetIt(t *testing.T) {
	suitetest.SkipShort(t)
	r, err := suitetest.Command([]string{"BENCHSPEC_PARENT=", "PATH=" + t.TempDir()}, "list")
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 2 || !strings.Contains(r.Stderr, "go get -tool github.com/benchspec/benchspec/cmd/benchspec") {
		t.Errorf("exit %d, stderr:\n%s\nwant 2 and how to add the benchspec program", r.Code, r.Stderr)
	}
}

// benchspec ab runs two builds in one batch: here HEAD's and the working
// tree's quickstart suite, built by benchspec, forks paired; the JSON
// holds the comparison and both builds' reports, every pair complete.
func TestABRunsTwoBuildsInOneBatch(t *testing.T) {
	suitetest.SkipShort(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if err := exec.Command("git", "rev-parse", "--verify", "HEAD").Run(); err != nil {
		t.Skip("not in a git checkout with a commit")
	}
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	spec := writeSpec(t, `version: 1
name: ab
defaults:
  forks: 4
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 10ms}
benchmarks:
  - include: '^strings\.Repeat$'
`)
	cache := t.TempDir()
	for _, order := range []string{"paired", "duet"} {
		args := []string{"ab", "--quiet", "--base", "HEAD", "--new", ".", "--suite", "./examples/quickstart", "--format", "json", spec}
		if order == "duet" {
			args = append(args, "--duet")
		}
		cmd := exec.Command(parent, args...)
		cmd.Env = append(os.Environ(), "BENCHSPEC_CACHE="+cache)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("benchspec %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		var got struct {
			Comparison struct {
				Test  string
				Pairs []struct {
					Key     string
					Verdict string
				}
			}
			Base, New struct {
				Order struct{ Kind string }
				Runs  []struct {
					Key   string
					Forks []struct{ PID int }
				}
			}
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if len(got.Comparison.Pairs) != 1 || got.Comparison.Pairs[0].Verdict == "" || got.Base.Order.Kind != order {
			t.Errorf("comparison %+v, base order %q: want one judged pair of a %s batch", got.Comparison, got.Base.Order.Kind, order)
		}
		for _, side := range [][]struct{ PID int }{got.Base.Runs[0].Forks, got.New.Runs[0].Forks} {
			if len(side) != 4 {
				t.Errorf("%s: a build ran %d forks, want 4", order, len(side))
			}
		}
	}
}

// The benchspec program given a spec of registered benchmarks and no
// suite says how to name one.
func TestProgramWithoutSuiteSaysToNameOne(t *testing.T) {
	suitetest.SkipShort(t)
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	cmd := exec.Command(parent, "plan", writeSpec(t, quick+"  - include: '^e2e\\.empty$'\n"))
	cmd.Env = append(os.Environ(), "BENCHSPEC_SUITE=")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "name the suite binary or its main package with --suite") {
		t.Errorf("plan without a suite: %v\n%s\nwant exit 2 and how to name the suite", err, out)
	}
}
