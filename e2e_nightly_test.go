package benchspec_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/format"
)

// The nightly features end to end: several specs in one plan, a results
// directory, progress lines, fork orders and shards, each through the
// real CLI and real forks with tiny iterations.

// tiny is quick with one short measurement iteration and no warmup.
const tiny = `version: 1
name: nightly
defaults:
  forks: 1
  warmup:      {iterations: 0}
  measurement: {iterations: 1, time: 5ms}
  timeout: 5s
benchmarks:
`

// run runs the test binary as a suite with args and extra environment
// variables; unlike suite it may be called from any goroutine.
func run(env []string, args ...string) (suitetest.Result, error) {
	return suitetest.Command(env, args...)
}

func mustRun(t *testing.T, env []string, args ...string) suitetest.Result {
	t.Helper()
	suitetest.SkipShort(t)
	r, err := run(env, args...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 0 {
		t.Fatalf("%v: exit %d; stderr:\n%s", args, r.Code, r.Stderr)
	}
	return r
}

func runKeys(r *report.Report) []string {
	var out []string
	for _, run := range r.Runs {
		out = append(out, run.Key)
	}
	return out
}

// A plan run as 4 shards in 4 processes merges into exactly the runs of
// the unsharded plan, each once; without one shard the merge fails and
// names what is missing.
func TestShardsMergeIntoThePlan(t *testing.T) {
	suitetest.SkipShort(t)
	spec := writeSpec(t, tiny+`  - include: '^e2e\.(empty|work)$'
    modes: [avgt, thrpt, ss]
  - include: '^e2e\.sized$'
`)
	dir := t.TempDir()
	outs := []string{filepath.Join(dir, "whole.json")}
	args := [][]string{{"--out", outs[0]}}
	for i := 1; i <= 4; i++ {
		outs = append(outs, filepath.Join(dir, fmt.Sprintf("shard%d.json", i)))
		args = append(args, []string{"--out", outs[i], "--shard", fmt.Sprintf("%d/4", i)})
	}
	// shard 3 through a Kubernetes Indexed Job's variable (pod index 2)
	args[3] = []string{"--out", outs[3], "--shard-from-env", "--shards", "4"}
	var wg sync.WaitGroup
	results := make([]suitetest.Result, len(args))
	errs := make([]error, len(args))
	for i := range args {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = run([]string{"JOB_COMPLETION_INDEX=2"}, append([]string{"run", spec, "--format", "json", "--quiet"}, args[i]...)...)
		}()
	}
	wg.Wait()
	for i := range args {
		if errs[i] != nil || results[i].Code != 0 {
			t.Fatalf("%v: exit %d, %v; stderr:\n%s", args[i], results[i].Code, errs[i], results[i].Stderr)
		}
	}
	whole, _ := readReport(t, outs[0])
	if len(whole.Runs) != 8 || whole.Shard != nil {
		t.Fatalf("the unsharded plan has %d runs, shard %v; want 8 runs, no shard", len(whole.Runs), whole.Shard)
	}
	var shards []report.Named
	sizes := map[int]int{}
	for i, path := range outs[1:] {
		rep, data := readReport(t, path)
		validateResult(t, data)
		if s := rep.Shard; s == nil || s.Index != i+1 || s.Count != 4 || !cmp.Equal(s.PlannedRuns, runKeys(whole)) {
			t.Fatalf("%s records shard %+v; want %d/4 with the plan's %d keys", path, s, i+1, len(whole.Runs))
		}
		sizes[len(rep.Runs)]++
		shards = append(shards, report.Named{Name: path, Report: rep})
	}
	if sizes[2] != 4 {
		t.Errorf("shard sizes %v; 8 runs of equal estimate want 2 per shard", sizes)
	}
	merged, _, err := report.Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(runKeys(whole), runKeys(merged)); diff != "" {
		t.Errorf("merged runs (-unsharded +merged):\n%s", diff)
	}
	if !merged.Complete || merged.Shard != nil {
		t.Errorf("merged: complete %v, shard %v; want a complete whole report", merged.Complete, merged.Shard)
	}

	_, _, err = report.Merge(slices.Delete(slices.Clone(shards), 2, 3))
	var ie *report.IncompleteError
	if !errors.As(err, &ie) {
		t.Fatalf("merge without shard 3: %v, want an *report.IncompleteError", err)
	}
	if diff := cmp.Diff(runKeys(shards[2].Report), ie.MissingRuns); diff != "" || !cmp.Equal(ie.MissingShards, []int{3}) {
		t.Errorf("missing shards %v, runs (-shard 3's +missing):\n%s", ie.MissingShards, diff)
	}
	for _, k := range runKeys(shards[2].Report) {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("the error does not name the missing run %s: %v", k, err)
		}
	}
}

// forkLine is a plain progress line: "<time> [3/12] key fork 1 of 2: ok …".
var forkLine = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \[(\d+)/(\d+)\] (\S+) fork (\d) of \d: ok in \S+, ETA \d\d:\d\d:\d\d$`)

// forkSequence is "key/fork" of each progress line, in order.
func forkSequence(t *testing.T, stderr string) []string {
	t.Helper()
	var seq []string
	for i, m := range forkLine.FindAllStringSubmatch(stderr, -1) {
		if m[1] != fmt.Sprint(i+1) {
			t.Errorf("progress line %d counts %s forks done", i+1, m[1])
		}
		seq = append(seq, m[3]+"/"+m[4])
	}
	return seq
}

// Interleaved, the forks alternate between the benchmarks, in the run
// log and the progress lines (one per fork, plain: CI=true), and the
// report holds the same runs and forks as the declared order's.
func TestInterleavedOrder(t *testing.T) {
	spec := writeSpec(t, tiny+`  - include: '^e2e\.(empty|work)$'
    forks: 2
`)
	out := filepath.Join(t.TempDir(), "r.json")
	r := mustRun(t, []string{"CI=true"}, "run", spec, "--order", "interleaved", "--format", "json", "--out", out, "--verbose")
	var headers []string
	for _, line := range strings.Split(r.Stderr, "\n") {
		if strings.HasPrefix(line, "# Benchmark: ") {
			headers = append(headers, strings.TrimPrefix(line, "# Benchmark: "))
		}
	}
	if diff := cmp.Diff([]string{"e2e.empty", "e2e.work", "e2e.empty avgt, fork 2 of 2", "e2e.work avgt, fork 2 of 2"}, headers); diff != "" {
		t.Errorf("run log benchmarks (-want +got):\n%s\n%s", diff, r.Stderr)
	}
	want := []string{"e2e.empty:avgt/1", "e2e.work:avgt/1", "e2e.empty:avgt/2", "e2e.work:avgt/2"}
	if diff := cmp.Diff(want, forkSequence(t, r.Stderr)); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s\n%s", diff, r.Stderr)
	}
	if strings.ContainsAny(r.Stderr, "\r\x1b") {
		t.Errorf("CI=true: stderr redraws (carriage return or escape sequence):\n%q", r.Stderr)
	}
	rep, data := readReport(t, out)
	validateResult(t, data)
	if rep.Order == nil || rep.Order.Kind != "interleaved" || rep.Order.Seed != nil {
		t.Errorf("report order %+v, want interleaved without a seed", rep.Order)
	}

	declaredOut := filepath.Join(t.TempDir(), "d.json")
	mustRun(t, nil, "run", spec, "--format", "json", "--out", declaredOut, "--quiet")
	declared, _ := readReport(t, declaredOut)
	if diff := cmp.Diff(shape(declared), shape(rep)); diff != "" {
		t.Errorf("the interleaved report differs from the declared one (-declared +interleaved):\n%s", diff)
	}
	// compare reads the order each report recorded: the declared side's
	// forks ran back to back, and the comparison says so.
	res := compare.Compare(declared, rep, compare.Options{Threshold: 0.05})
	// The other note is the one every comparison of two batches has.
	if len(res.Notes) != 2 || !strings.HasPrefix(res.Notes[0], "base ran in declared order") || !strings.Contains(res.Notes[1], "benchspec ab") {
		t.Errorf("compare of the declared (base) and interleaved (new) reports: notes %q, want one on base's declared order, then the drift note", res.Notes)
	}
}

// shape is a report's content without its measurements: runs, forks and
// iterations.
func shape(r *report.Report) []string {
	var out []string
	for _, run := range r.Runs {
		for _, f := range run.Forks {
			out = append(out, fmt.Sprintf("%s fork %d: %d iterations, %s", run.Key, f.Fork, len(f.Iterations), run.Status))
		}
	}
	return out
}

// --order random --seed 7 runs the forks in the same shuffled order
// every time, and the report records it.
func TestRandomOrderIsReproducible(t *testing.T) {
	spec := writeSpec(t, tiny+`  - include: '^e2e\.(empty|work|sized)$'
    forks: 2
`)
	var seqs [][]string
	for range 2 {
		out := filepath.Join(t.TempDir(), "r.json")
		r := mustRun(t, []string{"CI=true"}, "run", spec, "--order", "random", "--seed", "7", "--format", "json", "--out", out, "--verbose")
		seqs = append(seqs, forkSequence(t, r.Stderr))
		rep, _ := readReport(t, out)
		if o := rep.Order; o == nil || o.Kind != "random" || o.Seed == nil || *o.Seed != 7 {
			t.Errorf("report order %+v, want random with seed 7", o)
		}
	}
	if len(seqs[0]) != 8 {
		t.Fatalf("%d progress lines, want one per fork (8): %v", len(seqs[0]), seqs[0])
	}
	if diff := cmp.Diff(seqs[0], seqs[1]); diff != "" {
		t.Errorf("seed 7 twice (-first +second):\n%s", diff)
	}
	declared := []string{"e2e.empty:avgt/1", "e2e.empty:avgt/2", "e2e.sized/size=10:avgt/1", "e2e.sized/size=10:avgt/2",
		"e2e.sized/size=100:avgt/1", "e2e.sized/size=100:avgt/2", "e2e.work:avgt/1", "e2e.work:avgt/2"}
	if cmp.Equal(seqs[0], declared) {
		t.Errorf("seed 7 ran the declared order: %v", seqs[0])
	}
	if r, _ := run(nil, "run", spec, "--seed", "7"); r.Code != 2 || !strings.Contains(r.Stderr, "--seed goes with --order random") {
		t.Errorf("--seed without --order random: exit %d, stderr %q; want 2", r.Code, r.Stderr)
	}
}

// Two nightly runs into one results directory leave two timestamped
// reports with their journals, the history's index, and latest.json
// equal to the second.
func TestResultsDirKeepsEveryBatch(t *testing.T) {
	spec := writeSpec(t, tiny+`  - include: '^e2e\.empty$'
`)
	root := t.TempDir()
	dir := filepath.Join(root, "nightly")
	list := func() []string {
		names, _ := filepath.Glob(filepath.Join(dir, "*"))
		for i := range names {
			names[i] = filepath.Base(names[i])
		}
		sort.Strings(names)
		return names
	}
	mustRun(t, nil, "run", spec, "--results-dir", root, "--quiet")
	first := list()
	mustRun(t, nil, "run", spec, "--results-dir", root, "--quiet")
	all := list()
	stamp := regexp.MustCompile(`^\d{8}T\d{6}Z(-\d+)?\.json$`)
	var reports []string
	for _, n := range all {
		if stamp.MatchString(n) {
			reports = append(reports, n)
		}
	}
	if len(reports) != 2 || len(all) != 6 || !slices.Contains(all, "latest.json") || !slices.Contains(all, "history.index.jsonl") ||
		!slices.Contains(all, reports[0]+".journal") || !slices.Contains(all, reports[1]+".journal") {
		t.Fatalf("results directory holds %v; want 2 timestamped reports, their journals, history.index.jsonl and latest.json", all)
	}
	second := reports[0]
	if slices.Contains(first, second) {
		second = reports[1]
	}
	latest, err := os.ReadFile(filepath.Join(dir, "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(dir, second))
	if !bytes.Equal(latest, want) {
		t.Errorf("latest.json is not %s, the second batch's report", second)
	}
	validateResult(t, latest)
}

// The specs of a directory make one plan; a run selected again by
// another spec is kept, labelled "#2" in the table, and the report says
// which spec and entry each run came from.
func TestSpecDirectoryAndDuplicateRuns(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"b.yaml":   tiny + "  - include: '^e2e\\.work$'\n  - include: '^e2e\\.empty$'\n",
		"a.yaml":   tiny + "  - include: '^e2e\\.empty$'\n",
		"notes.md": "not a spec",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "r.json")
	mustRun(t, nil, "run", dir, "--format", "json", "--out", out, "--quiet")
	rep, _ := readReport(t, out)
	var got []string
	for _, run := range rep.Runs {
		got = append(got, fmt.Sprintf("%s %s[%d]", run.Key, filepath.Base(run.Spec), run.Entry))
	}
	want := []string{"e2e.empty:avgt a.yaml[0]", "e2e.work:avgt b.yaml[0]", "e2e.empty:avgt#2 b.yaml[1]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	if len(rep.Specs) != 2 {
		t.Errorf("report specs %v, want a.yaml and b.yaml", rep.Specs)
	}
	var table bytes.Buffer
	if err := (format.Text{}).Render(&table, rep); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^e2e\.empty #2 +avgt`).MatchString(table.String()) {
		t.Errorf("the table does not label the second e2e.empty:\n%s", table.String())
	}
}
