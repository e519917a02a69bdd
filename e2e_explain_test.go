package benchspec_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report/explain"
)

// explainBuilds builds examples/seeds as "base" and as "extra", whose
// planted.Spin also calls plantedExtra for the given share of its work
// (-X main.spinExtra).
func explainBuilds(t *testing.T, dir, extra string) {
	t.Helper()
	for name, flags := range map[string]string{"base": "", "extra": "-X main.spinExtra=" + extra} {
		cmd := exec.Command("go", "build", "-ldflags", flags, "-o", filepath.Join(dir, name), "./examples/seeds")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
}

// explained is what these tests read of a comparison's pairs.
type explained struct {
	Comparison struct {
		Pairs []struct {
			Key, Verdict string
			WhereNote    string `json:"where_note"`
			Where        *explain.Explanation
		}
	}
	Pairs []struct { // compare's JSON is the comparison itself
		Key, Verdict string
		Where        *explain.Explanation
	}
}

// ab --explain names the function a build added to a benchmark's body
// first in that run's "where", in the JSON and under the text's table;
// the unchanged twin beside it gets none; --profiles keeps each side's
// merged profile of the explained run. (Half as much work again, so
// that a machine busy with other work decides it too: the rates at
// 10 % and 2 % are measured, not tested: docs/statistics.md.)
func TestABExplainNamesTheAddedFunction(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	explainBuilds(t, dir, "0.5")
	writeFileIn(t, dir, "ab.yaml", "version: 1\nname: explain\nbenchmarks:\n  - include: '^planted\\.(Spin|Twin)$'\n")
	out, stderr, code := benchspecIn(t, dir, []string{"BENCHSPEC_CACHE=" + t.TempDir()},
		"ab", "--format", "json", "--quiet", "--explain", "--profiles", "prof", "--max-pairs", "40", "--base", "./base", "--new", "./extra", "ab.yaml")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a regression)\n%s", code, stderr)
	}
	var got explained
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Comparison.Pairs {
		switch p.Key {
		case "planted.Spin:avgt":
			if p.Verdict != "regression" || p.Where == nil || len(p.Where.Funcs) == 0 || p.Where.Funcs[0].Name != "main.plantedExtra" {
				t.Errorf("planted.Spin: %s, where %+v (%s); want a regression explained by main.plantedExtra first", p.Verdict, p.Where, p.WhereNote)
				continue
			}
			if f := p.Where.Funcs[0]; !(f.DeltaFlat > 0 && f.NewFlat > 0 && f.BaseFlat == 0 && f.Z > p.Where.Threshold) {
				t.Errorf("main.plantedExtra: %+v; want new time only, beyond the threshold %g", f, p.Where.Threshold)
			}
			for _, path := range []string{p.Where.BaseProfile, p.Where.NewProfile} {
				if _, err := explain.Merge([]string{path}); err != nil || filepath.Dir(path) != filepath.Join(dir, "prof") {
					t.Errorf("merged profile %q: %v; want a CPU profile in prof/", path, err)
				}
			}
		case "planted.Twin:avgt":
			if p.Where != nil || p.WhereNote != "" {
				t.Errorf("planted.Twin (%s): where %+v %q; an unchanged run says nothing", p.Verdict, p.Where, p.WhereNote)
			}
		}
	}
	text, _, _ := benchspecIn(t, dir, []string{"BENCHSPEC_CACHE=" + t.TempDir()},
		"ab", "--quiet", "--explain", "--max-pairs", "40", "--base", "./base", "--new", "./extra", "ab.yaml")
	if !strings.Contains(text, "Where the time went") || !strings.Contains(text, "main.plantedExtra") {
		t.Errorf("the text names no function under the table:\n%s", text)
	}
}

// A/A with --explain: no verdict, no "where"; and --profiles is refused,
// before anything runs, when it is not new or empty, or without
// --explain.
func TestABExplainSaysNothingOfNoChange(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	explainBuilds(t, dir, "0.5")
	writeFileIn(t, dir, "ab.yaml", "version: 1\nname: explain\nbenchmarks:\n  - include: '^planted\\.Twin$'\n")
	env := []string{"BENCHSPEC_CACHE=" + t.TempDir()}
	out, stderr, code := benchspecIn(t, dir, env, "ab", "--format", "json", "--quiet", "--explain", "--max-pairs", "20", "--base", "./base", "--new", "./base", "ab.yaml")
	if code != 0 || strings.Contains(out, `"where"`) || strings.Contains(out, `"where_note"`) {
		t.Errorf("A/A --explain: exit %d, output\n%s\n%s", code, out, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "busy"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--explain", "--profiles", "."}, {"--profiles", "new"}} {
		_, stderr, code := benchspecIn(t, dir, env, append(append([]string{"ab"}, args...), "--base", "./base", "--new", "./base", "ab.yaml")...)
		if code != 2 || !strings.Contains(stderr, "--profiles") || strings.Contains(stderr, "# Look") {
			t.Errorf("ab %v: exit %d, want 2 before any fork:\n%s", args, code, stderr)
		}
	}
}

// compare --explain reads the CPU profiles two reports' forks kept
// (profilers: [cpu], run --profiles) and names the added function.
func TestCompareExplainFromReports(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	explainBuilds(t, dir, "0.5")
	writeFileIn(t, dir, "run.yaml", `version: 1
name: explain
defaults:
  forks: 8
  warmup: {iterations: 1, time: 50ms}
  measurement: {iterations: 2, time: 100ms}
  profilers: [cpu]
benchmarks:
  - include: '^planted\.Spin$'
`)
	env := []string{"BENCHSPEC_CACHE=" + t.TempDir()}
	for _, side := range []string{"base", "extra"} {
		if _, stderr, code := benchspecIn(t, dir, env, "run", "--suite", "./"+side, "--quiet", "--format", "json", "--out", side+".json", "--profiles", side+"-prof", "run.yaml"); code != 0 {
			t.Fatalf("run %s: exit %d\n%s", side, code, stderr)
		}
		forgetTheLoad(t, filepath.Join(dir, side+".json"))
	}
	out, stderr, code := benchspecIn(t, dir, env, "compare", "--format", "json", "--explain", "base.json", "extra.json")
	var got explained
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("compare: exit %d, %v\n%s\n%s", code, err, out, stderr)
	}
	if len(got.Pairs) != 1 || got.Pairs[0].Verdict != "regression" || got.Pairs[0].Where == nil ||
		len(got.Pairs[0].Where.Funcs) == 0 || got.Pairs[0].Where.Funcs[0].Name != "main.plantedExtra" {
		t.Errorf("compare --explain: exit %d, %s\n%s", code, out, stderr)
	}
}

func writeFileIn(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// forgetTheLoad drops the environment check from a report: a batch that
// began on a busy machine (ENV_LOAD) gets no verdict from compare, and
// the test runs beside other packages' tests.
func forgetTheLoad(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	env, ok := rep["env"].(map[string]any)
	if !ok {
		t.Fatalf("%s has no env", path)
	}
	delete(env, "check")
	if data, err = json.Marshal(rep); err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}
