package benchspec_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report"
	"github.com/google/go-cmp/cmp"
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
		// Four pairs of 10 ms iterations can put an A/A interval beyond
		// 1 % (about 1 run in 13 here): the verdict is not what this
		// test checks, so the threshold is far beyond any noise.
		// --max-pairs 4: ab would add pairs until the interval decides.
		flags := []string{"--threshold", "50%", "--max-pairs", "4"}
		if order == "duet" {
			flags = append(flags, "--duet")
		}
		if order == "paired" {
			flags = append(flags, "--duet=false") // the default, said for the reader
		}
		out, code := abHeadAgainstTree(t, parent, cache, "./examples/quickstart", spec, flags...)
		if code != 0 {
			t.Fatalf("%s: exit %d, want 0: one build against itself is no regression\n%s", order, code, out)
		}
		var got struct {
			Comparison struct {
				Test  string
				Notes []string
				Pairs []struct {
					Key     string
					Verdict string
				}
			}
			Base, New struct {
				Order struct{ Kind string }
				Runs  []struct {
					Key   string
					Forks []struct {
						PID  int
						Duet bool
					}
				}
			}
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if len(got.Comparison.Pairs) != 1 || got.Comparison.Pairs[0].Verdict == "" || got.Base.Order.Kind != order {
			t.Errorf("comparison %+v, base order %q: want one judged pair of a %s batch", got.Comparison, got.Base.Order.Kind, order)
		}
		a, b := got.Base.Runs[0].Forks, got.New.Runs[0].Forks
		if len(a) != 4 || len(b) != 4 {
			t.Fatalf("%s: the builds ran %d and %d forks, want 4 each", order, len(a), len(b))
		}
		// Each fork says whether it ran in a duet. Three starved duets
		// in a row (a busy machine) turn the rest sequential, so at
		// least 3 of 4 pairs are duets, and the notes count the others.
		inStep := 0
		for k := range a {
			if a[k].Duet != b[k].Duet {
				t.Errorf("%s: pair %d: duet %v and %v, want one answer for both forks", order, k+1, a[k].Duet, b[k].Duet)
			}
			if a[k].Duet && b[k].Duet {
				inStep++
			}
		}
		notes := strings.Join(got.Comparison.Notes, "\n")
		switch {
		case order == "paired" && inStep != 0:
			t.Errorf("--duet=false: %d pairs ran as duets, want none", inStep)
		case order == "duet" && inStep < 3:
			t.Errorf("duets: %d of 4 pairs ran as duets, want at least 3", inStep)
		case order == "duet" && inStep < 4 && !strings.Contains(notes, fmt.Sprintf("%d of the 4 pairs that could run as duets did", inStep)):
			t.Errorf("duets: %d of 4 pairs ran as duets, and the notes do not say so:\n%s", inStep, notes)
		case inStep == 4 && strings.Contains(notes, "could run as duets"):
			t.Errorf("every pair ran as a duet, yet the notes say otherwise:\n%s", notes)
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

const buildsSpec = `version: 1
name: builds
defaults:
  forks: 2
  warmup: {iterations: 1, time: 1ms}
  measurement: {iterations: 2, time: 1ms}
builds:
  - name: base
  - name: noinline
    gcflags: "-l"
  - name: tagged
    tags: [benchspec_e2e]
  - name: local
    toolchain: local
benchmarks:
  - include: '^builds\.sum$'
`

// A spec's builds run in one batch: the benchspec program builds the
// suite's main package (testdata/buildsuite) once per build, and every
// run is measured in each build's binary, keyed and reported apart. The
// binaries really differ: the tagged build compiles the file that makes
// the benchmark report tag 2, the noinline build's binary records its
// -gcflags; the base build and the local toolchain's are the plain
// build's bytes, one file of the cache. compare --builds judges two
// builds of the one report. Without --order the forks run interleaved,
// so that the builds share the batch's minutes.
func TestSpecBuildsRunInOneBatch(t *testing.T) {
	suitetest.SkipShort(t)
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	cache := t.TempDir()
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(parent, "run", "--suite", "./testdata/buildsuite", "--quiet", "--format", "json", "--out", out, writeSpec(t, buildsSpec))
	cmd.Env = append(os.Environ(), "BENCHSPEC_CACHE="+cache)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("benchspec run --suite ./testdata/buildsuite: %v\n%s", err, b)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	type row struct {
		Key, Build      string
		Tag, NoInlining float64
		Forks           int
	}
	var got []row
	for _, r := range rep.Runs {
		if r.Failed() {
			t.Errorf("%s failed: %s\n%s", r.Key, r.Error, r.StderrTail)
			continue
		}
		got = append(got, row{r.Key, r.Params["build"], float64(r.SecondaryMetrics["tag"].Score), float64(r.SecondaryMetrics["noinline"].Score), len(r.Forks)})
	}
	want := []row{
		{"builds.sum/build=base:avgt", "base", 1, 0, 2},
		{"builds.sum/build=noinline:avgt", "noinline", 1, 1, 2},
		{"builds.sum/build=tagged:avgt", "tagged", 2, 0, 2},
		{"builds.sum/build=local:avgt", "local", 1, 0, 2},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
	if rep.Order == nil || rep.Order.Kind != "interleaved" {
		t.Errorf("order %+v, want interleaved: a spec's builds share the batch's minutes fork by fork", rep.Order)
	}
	// The report says how each build was built, as its binary says.
	type buildRow struct{ Name, GoVersion, GCFlags, Tags string }
	var builds []buildRow
	for _, b := range rep.Builds {
		builds = append(builds, buildRow{b.Name, b.GoVersion, b.GCFlags, b.Tags})
	}
	v := runtime.Version()
	if d := cmp.Diff([]buildRow{{"base", v, "", ""}, {"noinline", v, "-l", ""}, {"tagged", v, "", "benchspec_e2e"}, {"local", v, "", ""}}, builds); d != "" {
		t.Errorf("the report's builds (-want +got):\n%s", d)
	}
	built, _ := filepath.Glob(filepath.Join(cache, "suite-buildsuite-*.test"))
	if len(built) != 3 {
		t.Errorf("the cache holds %v, want 3 suite binaries: the plain build's (base, local), noinline's and tagged's", built)
	}

	compare := exec.Command(parent, "compare", "--builds", "base,tagged", "--format", "json", out)
	js, err := compare.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1: judged a regression
		t.Fatalf("compare --builds base,tagged: %v", err)
	}
	var res struct {
		Base, New string
		Pairs     []struct{ Key string }
	}
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if len(res.Pairs) != 1 || res.Pairs[0].Key != "builds.sum:avgt" || !strings.HasSuffix(res.New, "build tagged") {
		t.Errorf("compare --builds base,tagged: %+v, want the one pair builds.sum:avgt of base and tagged", res)
	}
}

// abHeadAgainstTree runs `ab --base HEAD --new .` of suite with spec,
// JSON output, binaries cached in cache, and returns its output and
// exit status, 0 or 1 (a regression); anything else fails the test.
func abHeadAgainstTree(t *testing.T, parent, cache, suite, spec string, flags ...string) ([]byte, int) {
	t.Helper()
	args := append([]string{"ab", "--quiet", "--base", "HEAD", "--new", ".", "--suite", suite, "--format", "json", spec}, flags...)
	cmd := exec.Command(parent, args...)
	cmd.Env = append(os.Environ(), "BENCHSPEC_CACHE="+cache)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return out, 1
	}
	t.Fatalf("benchspec %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	return nil, 0
}

// ab with a spec that has builds compares each build of the base
// revision with the same build of the new one: the spec's builds are
// built at both revisions, and the tagged build is the tagged build on
// both sides.
func TestABComparesEachBuildOfASpec(t *testing.T) {
	suitetest.SkipShort(t)
	if err := exec.Command("git", "rev-parse", "--verify", "HEAD:testdata/buildsuite/main.go").Run(); err != nil {
		t.Skip("not in a git checkout whose HEAD has testdata/buildsuite")
	}
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	spec := writeSpec(t, `version: 1
name: abbuilds
defaults:
  forks: 2
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 1ms}
builds:
  - name: base
  - name: tagged
    tags: [benchspec_e2e]
benchmarks:
  - include: '^builds\.sum$'
`)
	out, _ := abHeadAgainstTree(t, parent, t.TempDir(), "./testdata/buildsuite", spec) // 0, or 1 for a regression
	var got struct {
		Comparison struct {
			Pairs []struct{ Key string }
		}
		Base, New report.Report
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var keys []string
	for _, p := range got.Comparison.Pairs {
		keys = append(keys, p.Key)
	}
	want := []string{"builds.sum/build=base:avgt", "builds.sum/build=tagged:avgt"}
	if d := cmp.Diff(want, keys); d != "" {
		t.Errorf("compared runs (-want +got):\n%s", d)
	}
	for side, rep := range map[string]report.Report{"base": got.Base, "new": got.New} {
		tags := map[string]float64{}
		for _, r := range rep.Runs {
			if r.Failed() {
				t.Errorf("%s: %s failed: %s", side, r.Key, r.Error)
				continue
			}
			tags[r.Params["build"]] = float64(r.SecondaryMetrics["tag"].Score)
		}
		if d := cmp.Diff(map[string]float64{"base": 1, "tagged": 2}, tags); d != "" {
			t.Errorf("%s: the tag metric by build (-want +got): each build must be built with its tags at each revision\n%s", side, d)
		}
		if len(rep.Builds) != 2 || rep.Builds[1].Name != "tagged" || rep.Builds[1].Tags != "benchspec_e2e" {
			t.Errorf("%s: builds %+v, want base and tagged, built with its tag", side, rep.Builds)
		}
	}
}

// A suite binary run by hand hands itself over as a built binary, which
// benchspec cannot build otherwise: a spec with builds is refused with
// exit 2 and how to run it, before anything runs.
func TestBuildsOfABuiltSuiteAreRefused(t *testing.T) {
	r := suite(t, "run", writeSpec(t, quick+"  - include: '^e2e\\.empty$'\nbuilds:\n  - name: base\n  - name: noinline\n    gcflags: -l\n"))
	if r.Code != 2 || !strings.Contains(r.Stderr, "the suite here is a built binary") || !strings.Contains(r.Stderr, "run with --suite PKG naming the suite's main package") {
		t.Errorf("exit %d, stderr:\n%s\nwant 2 and to run with --suite PKG", r.Code, r.Stderr)
	}
}
