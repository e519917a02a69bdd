package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

func writeFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		path := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSpecFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "specs/b.yaml", "specs/a.yaml", "specs/c.yml", "specs/sub/d.yaml", "e.yaml", "empty/readme.md")
	at := func(p string) string { return filepath.Join(dir, p) }
	got, err := specFiles([]string{at("e.yaml"), at("specs"), at("specs/a.yaml"), at("missing.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	// sorted, not recursive, *.yaml only; a file named twice once; a
	// missing file left to the parser's error
	want := []string{at("e.yaml"), at("specs/a.yaml"), at("specs/b.yaml"), at("missing.yaml")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("specFiles (-want +got):\n%s", diff)
	}
	if _, err := specFiles([]string{at("empty")}); err == nil || !strings.Contains(err.Error(), "a directory without spec files (*.yaml)") {
		t.Errorf("a directory without specs: %v", err)
	}
}

func TestShardFlags(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvCompletionIndex {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		flags shardFlags
		index string
		i, n  int
		err   string
	}{
		{flags: shardFlags{}},
		{flags: shardFlags{shard: "2/4"}, i: 2, n: 4},
		{flags: shardFlags{fromEnv: true, shards: 4}, index: "0", i: 1, n: 4},
		{flags: shardFlags{fromEnv: true, shards: 4}, index: "3", i: 4, n: 4},
		{flags: shardFlags{fromEnv: true, shards: 4}, index: "4", err: "numbers the pods 0 to 3"},
		{flags: shardFlags{fromEnv: true, shards: 4}, index: "", err: `JOB_COMPLETION_INDEX="" is not a pod index`},
		{flags: shardFlags{fromEnv: true}, index: "1", err: "--shard-from-env needs --shards N"},
		{flags: shardFlags{shard: "1/2", fromEnv: true, shards: 2}, err: "give one of them"},
		{flags: shardFlags{shards: 2}, err: "--shards goes with --shard-from-env"},
		{flags: shardFlags{shard: "3/2"}, err: "numbered from 1 to 2"},
	} {
		i, n, err := tc.flags.part(env(tc.index))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v with index %q: error %v, want %q", tc.flags, tc.index, err, tc.err)
			}
			continue
		}
		if err != nil || i != tc.i || n != tc.n {
			t.Errorf("%+v with index %q = %d/%d, %v; want %d/%d", tc.flags, tc.index, i, n, err, tc.i, tc.n)
		}
	}
}

// A batch takes a name no earlier batch has, a shard's carries its
// number, and a resumed batch keeps its report's name.
func TestResultsDirNames(t *testing.T) {
	root := t.TempDir()
	p := &plan.Plan{Suite: "nightly"}
	start := time.Date(2026, 1, 15, 3, 30, 0, 0, time.FixedZone("CET", 3600))
	rel := func(rd *resultsDir) []string {
		var out []string
		for _, p := range []string{rd.report, rd.journal, rd.latest} {
			r, _ := filepath.Rel(root, p)
			out = append(out, r)
		}
		return out
	}
	first, err := openResultsDir(root, p, start, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"nightly/20260115T023000Z.json", "nightly/20260115T023000Z.json.journal", "nightly/latest.json"}
	if diff := cmp.Diff(want, rel(first)); diff != "" {
		t.Errorf("first batch (-want +got):\n%s", diff)
	}
	second, _ := openResultsDir(root, p, start, "")
	if got := rel(second)[0]; got != "nightly/20260115T023000Z-2.json" {
		t.Errorf("a second batch in the same second writes %s", got)
	}
	shard, _ := plan.Shard(p, 2, 4)
	rd, _ := openResultsDir(root, shard, start, "")
	want = []string{"nightly/20260115T023000Z-shard-2-of-4.json", "nightly/20260115T023000Z-shard-2-of-4.json.journal", "nightly/latest-shard-2-of-4.json"}
	if diff := cmp.Diff(want, rel(rd)); diff != "" {
		t.Errorf("shard (-want +got):\n%s", diff)
	}
	resumed, _ := openResultsDir(root, p, start.Add(time.Hour), first.journal)
	if diff := cmp.Diff(rel(first), rel(resumed)); diff != "" {
		t.Errorf("resumed batch (-first +resumed):\n%s", diff)
	}

	rep := &report.Report{SchemaVersion: report.SchemaVersion, Suite: "nightly", Runs: []report.Run{}, Specs: []plan.SpecRef{}}
	if err := second.write(rep, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(second.latest); !os.IsNotExist(err) {
		t.Errorf("an interrupted batch made itself the latest: %v", err)
	}
	if err := second.write(rep, true); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(second.report)
	b, _ := os.ReadFile(second.latest)
	if fi, err := os.Stat(second.latest); err != nil || fi.Mode().Perm() != 0o644 || !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("latest.json: %v, %v; want a readable copy of the report", fi, err)
	}
}

// plan shows each run's threads, as the run table's names do
// ("map.Lookup/threads=2"): two runs that differ only in threads are told
// apart.
func TestPlanShowsThreads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	body := "version: 1\nname: t\ndefaults: {forks: 1}\nbenchmarks:\n  - include: '^sqrt\\.Sunk$'\n    threads: 2\n  - include: '^sqrt\\.Sunk$'\n    threads: max\n  - include: '^sqrt\\.Sunk$'\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"plan", path}, registry, &stdout, &stderr); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(stdout.String(), "\n")
	want := [][]string{{"#", "Benchmark", "Params", "Mode", "Threads", "Forks"}, {"1", "sqrt.Sunk", "avgt", "2", "1"}, {"2", "sqrt.Sunk", "avgt", "max", "1"}, {"3", "sqrt.Sunk", "avgt", "1", "1"}}
	for i, w := range want {
		if got := strings.Fields(lines[i]); len(got) < len(w) || !slices.Equal(got[:len(w)], w) {
			t.Errorf("plan line %d: %q, want it to start with %q\n%s", i+1, lines[i], w, stdout.String())
		}
	}
}

// plan --shards n shows each run's part and the parts' estimates.
func TestPlanShards(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	body := "version: 1\nname: t\ndefaults: {forks: 1, measurement: {iterations: 1, time: 1s}, warmup: {iterations: 0}}\nbenchmarks:\n  - include: '^sqrt'\n  - include: '^sort\\.Ints$'\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"plan", path, "--shards", "2"}, registry, &stdout, &stderr); code != 0 {
		t.Fatalf("plan --shards 2: exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"Shard\n", "4 runs, estimated 4s\nshard 1/2: 2 runs, estimated 2s\nshard 2/2: 2 runs, estimated 2s\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("plan --shards 2 lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if code := Suite(context.Background(), []string{"plan", path, "--shard", "2/2"}, registry, &stdout, &stderr); code != 0 || !strings.HasSuffix(stdout.String(), "shard 2/2: 2 of 4 runs, estimated 2s\n") {
		t.Errorf("plan --shard 2/2: exit %d:\n%s", code, stdout.String())
	}
}

// A run or plan of package entries builds their test binaries before the
// plan exists; when that takes a while, stderr says so before the
// estimate, which is of the runs alone (an estimate of 9 s once took 42 s
// with the build). --quiet leaves the note out.
func TestPackageBuildTimeIsNoted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	body := "version: 1\nname: t\ndefaults: {forks: 1, warmup: {iterations: 0}, measurement: {iterations: 1, time: 10ms}}\nbenchmarks:\n  - package: strings\n    include: '^BenchmarkIndex$'\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := registry
	reg.Packages = func(ctx context.Context, specs []*spec.Spec, _ *spec.Build) ([]plan.Benchmark, error) {
		time.Sleep(1100 * time.Millisecond) // a build
		return []plan.Benchmark{{Name: "Index", Package: "strings", GoTest: &plan.GoTest{ImportPath: "strings", Func: "BenchmarkIndex", Name: "BenchmarkIndex"}}}, nil
	}
	var stdout, stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"plan", path}, reg, &stdout, &stderr); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr.String())
	}
	// The time is the machine's: at least the 1.1 s the resolver slept.
	if re := regexp.MustCompile(`^# Test binaries of 1 package entry built and listed in (1\.[1-9]|[2-9](\.\d)?|\d\d+(\.\d)?)s \(cached for the next run; not in the estimate\)\n$`); !re.MatchString(stderr.String()) {
		t.Errorf("plan stderr %q, want it to match %s", stderr.String(), re)
	}
	if !strings.Contains(stdout.String(), "1 runs, estimated") {
		t.Errorf("plan stdout:\n%s", stdout.String())
	}
}
