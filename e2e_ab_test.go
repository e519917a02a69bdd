package benchspec_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/examples/suitetest"
)

// seedsBuilds builds examples/seeds into dir once per planted.Spin
// factor (go build -ldflags -X main.spinFactor), named by the factor.
func seedsBuilds(t *testing.T, dir string, factors ...string) {
	t.Helper()
	for _, f := range factors {
		cmd := exec.Command("go", "build", "-ldflags", "-X main.spinFactor="+f, "-o", filepath.Join(dir, f), "./examples/seeds")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
}

// abResult is what these tests read of ab's JSON.
type abResult struct {
	Comparison struct {
		Notes []string
		Pairs []struct {
			Key, Verdict, Reason, Stop string
			Base                       struct{ Forks int }
		}
	}
	Base struct {
		Runs []struct {
			Key      string
			Forks    []struct{ Warmup bool }
			Settings struct {
				Forks  int
				Warmup struct {
					Iterations int
					Time       string
				}
				Measurement struct {
					Iterations int
					Time       string
				}
			}
		}
	}
}

func runAB(t *testing.T, dir string, args ...string) (abResult, string, int) {
	t.Helper()
	out, stderr, code := benchspecIn(t, dir, []string{"BENCHSPEC_CACHE=" + t.TempDir()},
		append([]string{"ab", "--format", "json"}, args...)...)
	var got abResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("ab %v: exit %d, %v\n%s\n%s", args, code, err, out, stderr)
	}
	return got, stderr, code
}

// ab adds pairs to a run until its interval decides: a planted +200 %
// (large, so that a machine busy with other work decides it too: at
// +50 % a load of 12 on 2 cores left it inconclusive after 40 pairs)
// is a regression that stops "decided", its pairs those its reports
// hold; the unchanged twin beside it stops decided or at --max-pairs,
// with no more pairs than that and, if undecided, a reason naming the
// bound. The run log says what each look found.
func TestABAddsPairsUntilDecided(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	seedsBuilds(t, dir, "1", "3")
	if err := os.WriteFile(filepath.Join(dir, "ab.yaml"), []byte(`version: 1
name: ab
defaults:
  forks: 4
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 5ms}
benchmarks:
  - include: '^planted\.(Spin|Twin)$'
`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, stderr, code := runAB(t, dir, "--base", "./1", "--new", "./3", "--threshold", "5%", "--max-time", "5m", "--max-pairs", "40", "ab.yaml")
	if code != 1 {
		t.Errorf("exit %d, want 1 (a regression)\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "# Look 1 at ") {
		t.Errorf("the run log does not say what the first look found:\n%s", stderr)
	}
	forks := map[string]int{}
	for _, r := range got.Base.Runs {
		forks[r.Key] = len(r.Forks)
		if r.Settings.Forks != len(r.Forks) {
			t.Errorf("%s: settings say %d forks, the report holds %d", r.Key, r.Settings.Forks, len(r.Forks))
		}
	}
	for _, p := range got.Comparison.Pairs {
		if p.Base.Forks != forks[p.Key] || p.Base.Forks < 4 || p.Base.Forks > 40 {
			t.Errorf("%s: %d pairs judged, %d forks reported; want the same, from 4 to 40", p.Key, p.Base.Forks, forks[p.Key])
		}
		switch {
		case p.Key == "planted.Spin:avgt" && (p.Verdict != "regression" || p.Stop != "decided"):
			t.Errorf("planted.Spin +200 %%: %s, stopped %q (%s); want a regression, decided", p.Verdict, p.Stop, p.Reason)
		case p.Stop == "decided" && p.Verdict == "inconclusive":
			t.Errorf("%s: decided, yet inconclusive", p.Key)
		case p.Stop == "bound" && (p.Base.Forks < 40 || !strings.Contains(p.Reason, "--max-pairs 40")):
			t.Errorf("%s: stopped at the bound after %d pairs: %s", p.Key, p.Base.Forks, p.Reason)
		case p.Stop != "decided" && p.Stop != "bound":
			t.Errorf("%s: stopped %q, want decided or bound (--max-time 5m is far)", p.Key, p.Stop)
		}
	}
}

// Where a spec sets no forks, warmup or measurement, ab uses its own
// (10 pairs to start, 1 + 2 iterations of 20 ms); what the spec sets
// wins, key by key. A run that --max-time leaves no room for after its
// first look stops at the budget, and says how much time would decide
// it. --alpha 0.0001 keeps an A/A verdict out of reach at threshold 0.
func TestABDefaultsAndBudget(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	seedsBuilds(t, dir, "1")
	if err := os.WriteFile(filepath.Join(dir, "ab.yaml"), []byte(`version: 1
name: ab
benchmarks:
  - include: '^planted\.Twin$'
  - include: '^planted\.Spin$'
    measurement: {time: 30ms}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, stderr, code := runAB(t, dir, "--base", "./1", "--new", "./1", "--threshold", "0", "--alpha", "0.0001", "--max-time", "1s", "ab.yaml")
	if code != 0 {
		t.Errorf("exit %d, want 0\n%s", code, stderr)
	}
	want := map[string]string{"planted.Twin:avgt": "1×20ms, 2×20ms", "planted.Spin:avgt": "1×20ms, 2×30ms"}
	for _, r := range got.Base.Runs {
		s := r.Settings
		phases := fmt.Sprintf("%d×%s, %d×%s", s.Warmup.Iterations, s.Warmup.Time, s.Measurement.Iterations, s.Measurement.Time)
		if phases != want[r.Key] || s.Forks != 10 {
			t.Errorf("%s: %d forks, %s; want 10 forks, %s", r.Key, s.Forks, phases, want[r.Key])
		}
	}
	for _, p := range got.Comparison.Pairs {
		if p.Stop != "budget" || p.Verdict != "inconclusive" || !strings.Contains(p.Reason, "it stopped at --max-time 1s after 10 pairs") {
			t.Errorf("%s: %s, stopped %q: %s; want inconclusive at the budget, after 10 pairs", p.Key, p.Verdict, p.Stop, p.Reason)
		}
	}
}

// ab's --out may not be its spec or a suite binary it measures: exit 2
// before any fork runs, the file as it was.
func TestABOutIsNoInput(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	seedsBuilds(t, dir, "1")
	spec := []byte("version: 1\nname: ab\nbenchmarks:\n  - include: '^planted\\.Twin$'\n")
	if err := os.WriteFile(filepath.Join(dir, "ab.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(filepath.Join(dir, "1"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"ab.yaml": spec, "1": bin} {
		_, stderr, code := benchspecIn(t, dir, []string{"BENCHSPEC_CACHE=" + t.TempDir()},
			"ab", "--base", "./1", "--new", "./1", "--out", name, "ab.yaml")
		after, err := os.ReadFile(filepath.Join(dir, name))
		if code != 2 || err != nil || string(after) != string(data) || strings.Contains(stderr, "Look 1") {
			t.Errorf("ab --out %s: exit %d, file kept %v, stderr:\n%s\nwant exit 2 before any fork, the file as it was", name, code, err == nil && string(after) == string(data), stderr)
		}
	}
}
