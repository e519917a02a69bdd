package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
)

// The fixture reports of the compare package: two runs of one build, and
// one with sqrt.Sunk avgt 30 % slower, 3 forks a run; base5 and slow5
// are base and slow with 5 forks a run, enough for compare's rank test
// to be significant.
var (
	baseJSON  = filepath.Join("..", "..", "report", "compare", "testdata", "base.json")
	rerunJSON = filepath.Join("..", "..", "report", "compare", "testdata", "rerun.json")
	slowJSON  = filepath.Join("..", "..", "report", "compare", "testdata", "slow.json")
	base5JSON = filepath.Join("..", "..", "report", "compare", "testdata", "base5.json")
	slow5JSON = filepath.Join("..", "..", "report", "compare", "testdata", "slow5.json")
)

func runCmd(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestReportCommand(t *testing.T) {
	for _, name := range format.Names[format.Renderer](formats()) {
		status, stdout, stderr := runCmd(t, "report", baseJSON, "--format", name)
		if status != exitOK || stdout == "" || stderr != "" {
			t.Errorf("report --format %s: status %d, %d bytes out, stderr %q", name, status, len(stdout), stderr)
		}
	}
	_, md, _ := runCmd(t, "report", "--format", "markdown", baseJSON)
	if !strings.Contains(mdTight(md), "|`sqrt.Sunk`||avgt|15|2.202|± 0.324|ns/op|") {
		t.Errorf("markdown report lacks sqrt.Sunk's row:\n%s", md)
	}
	out := filepath.Join(t.TempDir(), "report.html")
	if status, stdout, _ := runCmd(t, "report", baseJSON, "--format", "html", "--out", out); status != exitOK || stdout != "" {
		t.Fatalf("report --out: status %d, stdout %q", status, stdout)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 || fi.Size() < 1000 {
		t.Errorf("report --out wrote %v, %v; want a readable page", fi, err)
	}
}

func TestCompareCommand(t *testing.T) {
	status, stdout, _ := runCmd(t, "compare", baseJSON, rerunJSON)
	if status != exitOK || !strings.Contains(stdout, "regressions: 0,") {
		t.Errorf("compare base rerun: status %d, want 0 and no regression:\n%s", status, stdout)
	}
	status, stdout, _ = runCmd(t, "compare", base5JSON, slow5JSON, "--threshold", "5%")
	if status != exitFail || strings.Count(stdout, "REGRESSION") != 1 || !strings.Contains(stdout, "sqrt.Sunk") {
		t.Errorf("compare base5 slow5: status %d, want 1 and one regression:\n%s", status, stdout)
	}
	if status, _, _ := runCmd(t, "compare", "--threshold", "50", base5JSON, slow5JSON); status != exitOK {
		t.Errorf("compare --threshold 50: status %d, want 0", status)
	}
	status, stdout, _ = runCmd(t, "compare", "--format", "json", base5JSON, slow5JSON)
	var res struct {
		Test  string
		Pairs []struct {
			Key, Verdict string
			PRank        *float64 `json:"p_rank"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || status != exitFail {
		t.Fatalf("compare --format json: status %d, %v:\n%s", status, err, stdout)
	}
	var regressed []string
	for _, p := range res.Pairs {
		if p.Verdict == "regression" {
			regressed = append(regressed, p.Key)
			if p.PRank == nil || *p.PRank >= 0.05 {
				t.Errorf("%s: regression with p_rank %v, want one below 0.05", p.Key, p.PRank)
			}
		}
	}
	if diff := cmp.Diff([]string{"sqrt.Sunk#avgt"}, regressed); diff != "" || res.Test != "welch+mann-whitney-fork-means" {
		t.Errorf("test %q, regressions (-want +got):\n%s", res.Test, diff)
	}
	if _, md, _ := runCmd(t, "compare", "--format", "markdown", base5JSON, slow5JSON); !strings.Contains(mdTight(md), "|sqrt.Sunk|") {
		t.Errorf("markdown comparison:\n%s", md)
	}
	// With 3 forks a side the rank test cannot be significant: it takes
	// no part, the same +30 % is a regression by Welch's test alone, exit
	// 1, and the output says so.
	status, stdout, _ = runCmd(t, "compare", baseJSON, slowJSON)
	if status != exitFail || !strings.Contains(stdout, "REGRESSION") ||
		!strings.Contains(stdout, "sqrt.Sunk avgt: decided by Welch's test on the fork means alone: the rank test cannot go below p = 0.1 with 3 and 3 forks") ||
		!strings.Contains(stdout, "The 5 tested runs are one family: Holm's correction") {
		t.Errorf("compare base slow (3 forks): status %d, want 1, a regression by Welch alone, said so:\n%s", status, stdout)
	}
	if status, _, stderr := runCmd(t, "compare", "--correction", "bonferroni", baseJSON, slowJSON); status != exitUsage ||
		!strings.Contains(stderr, `--correction: unknown correction "bonferroni" (valid: holm, none)`) {
		t.Errorf("compare --correction bonferroni: status %d, stderr %s; want a usage error naming the valid ones", status, stderr)
	}
}

// TestCompareBuildsOfOneReport: compare --builds takes two builds of one
// report (a spec's builds:) as two reports, and pairs their runs as
// compare pairs the reports the builds came from; a build the report
// lacks, or a flag without two names, is a usage error naming what there
// is.
func TestCompareBuildsOfOneReport(t *testing.T) {
	both := readFixture(t, base5JSON)
	both.Runs = nil
	for _, side := range [][2]string{{"base", base5JSON}, {"slow", slow5JSON}} {
		build := side[0]
		for _, r := range readFixture(t, side[1]).Runs {
			r.Key = r.Benchmark + "/build=" + build + strings.TrimPrefix(r.Key, r.Benchmark)
			r.Params["build"] = build
			both.Runs = append(both.Runs, r)
		}
	}
	path := writeFixture(t, t.TempDir(), "both.json", both)
	pairs := func(args ...string) (int, string) {
		status, stdout, stderr := runCmd(t, append([]string{"compare", "--format", "json"}, args...)...)
		var res struct{ Pairs json.RawMessage }
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("compare %v: status %d, %v\n%s%s", args, status, err, stdout, stderr)
		}
		return status, string(res.Pairs)
	}
	status, want := pairs(base5JSON, slow5JSON)
	got, gotPairs := pairs("--builds", "base,slow", path)
	if diff := cmp.Diff(want, gotPairs); diff != "" || got != status || status != exitFail {
		t.Errorf("compare --builds base,slow: status %d, want %d as the two reports give, pairs (-want +got):\n%s", got, status, diff)
	}
	for _, tt := range []struct{ args []string }{
		{[]string{"--builds", "base,fast", path}},
		{[]string{"--builds", "base", path}},
		{[]string{"--builds", "base,slow", path, path}},
	} {
		if status, _, stderr := runCmd(t, append([]string{"compare"}, tt.args...)...); status != exitUsage || !strings.Contains(stderr, "--builds") {
			t.Errorf("compare %v: status %d, stderr %q; want a usage error about --builds", tt.args, status, stderr)
		}
	}
	if _, _, stderr := runCmd(t, "compare", "--builds", "base,fast", path); !strings.Contains(stderr, "the builds of "+path+" are base, slow") {
		t.Errorf("compare --builds base,fast: %q, want the builds there are", stderr)
	}
}

// TestCompareNeverSaysUnchangedForAWideInterval: a pair whose interval
// crosses the threshold, or with --threshold 0 any pair that is not
// significant, reads inconclusive with "no change shown" and the forks
// that would decide it, in the table and the reasons; the exit status
// stays 0.
func TestCompareNeverSaysUnchangedForAWideInterval(t *testing.T) {
	status, stdout, _ := runCmd(t, "compare", "--threshold", "0", baseJSON, rerunJSON)
	if status != exitOK || !strings.Contains(stdout, "unchanged: 0,") || strings.Contains(stdout, "  unchanged") ||
		!strings.Contains(stdout, "with threshold 0 nothing can be shown unchanged") ||
		!strings.Contains(stdout, "counter.Inc1 avgt: no change shown: the 95% interval [-3.4%, +3.5%] of the change holds 0: more than 1000 forks a side would be needed to show a change of this size; the difference is too small to decide at this noise") ||
		!strings.Contains(stdout, "sqrt.Sunk avgt: no change shown: the 95% interval [-3.5%, +3.1%] of the change holds 0: about 411 forks a side would show a change of this size") {
		t.Errorf("compare --threshold 0 base rerun: status %d, want 0, no pair unchanged, each with no change shown:\n%s", status, stdout)
	}
	status, stdout, _ = runCmd(t, "compare", baseJSON, rerunJSON)
	if status != exitOK || !strings.Contains(stdout, "counter.Inc1 thrpt: no change shown: the 95% interval [-4.2%, +6.0%] of the change crosses ±5%: about 4 forks a side would decide it") {
		t.Errorf("compare base rerun: status %d; want the interval across ±5%% said as no change shown:\n%s", status, stdout)
	}
}

// TestCompareNotesDeclaredOrder: two reports whose forks ran in
// declared order get a note, in the table and in the JSON, that says so
// and how batches for compare should run; the verdicts and exit status
// are those without it.
func TestCompareNotesDeclaredOrder(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{base5JSON, slow5JSON} {
		rep := readFixture(t, name)
		rep.Order = &report.Order{Kind: "declared"}
		paths = append(paths, writeFixture(t, dir, filepath.Base(name), rep))
	}
	status, stdout, _ := runCmd(t, "compare", paths[0], paths[1])
	if status != exitFail || strings.Count(stdout, "REGRESSION") != 1 ||
		!strings.Contains(stdout, "\nNote: base and new ran in declared order: each run's forks ran back to back") ||
		!strings.Contains(stdout, "run batches meant for compare with --order interleaved") {
		t.Errorf("compare of declared-order reports: status %d, want 1, one regression and the note:\n%s", status, stdout)
	}
	_, stdout, _ = runCmd(t, "compare", "--format", "json", paths[0], paths[1])
	var res struct{ Notes []string }
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Notes) != 2 || !strings.HasPrefix(res.Notes[0], "base and new ran in declared order") {
		t.Errorf("compare --format json: notes %q, %v; want the note", res.Notes, err)
	}
	if _, stdout, _ := runCmd(t, "compare", baseJSON, slowJSON); strings.Contains(stdout, "declared order") || !strings.Contains(stdout, "Note: these are two batches") {
		t.Errorf("compare of reports that do not record their order: want the drift note alone:\n%s", stdout)
	}
}

func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	rep := readFixture(t, baseJSON)
	a, b := *rep, *rep
	a.Runs, b.Runs = rep.Runs[:2], rep.Runs[2:]
	pa, pb := writeFixture(t, dir, "a.json", &a), writeFixture(t, dir, "b.json", &b)
	out := filepath.Join(dir, "all.json")
	if status, _, stderr := runCmd(t, "merge", pa, pb, "--out", out); status != exitOK {
		t.Fatalf("merge: status %d: %s", status, stderr)
	}
	merged := readFixture(t, out)
	if len(merged.Runs) != len(rep.Runs) || merged.Runs[2].Key != rep.Runs[2].Key {
		t.Errorf("merged %d runs, want %d in order", len(merged.Runs), len(rep.Runs))
	}
	status, stdout, stderr := runCmd(t, "merge", pa, baseJSON)
	if status != exitUsage || stdout != "" ||
		!strings.Contains(stderr, `run "counter.Inc1#avgt" is in both `+pa+" and "+baseJSON) ||
		!strings.Contains(stderr, "2 colliding runs; nothing written") {
		t.Errorf("merge with collisions: status %d, stdout %q, stderr:\n%s", status, stdout, stderr)
	}
}

// TestReportUsageErrors checks the misuse of report, compare and merge:
// each exits 2 with a message naming the problem.
func TestReportUsageErrors(t *testing.T) {
	notJSON := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(notJSON, []byte("score: 1\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "want one JSON report, got 0"},
		{[]string{"report", baseJSON, "--format", "xml"}, `unknown format "xml"`},
		{[]string{"report", "missing.json"}, "missing.json: no such file"},
		{[]string{"report", notJSON}, "reading JSON report"},
		{[]string{"compare", baseJSON}, "want two JSON reports, BASE and NEW, got 1"},
		{[]string{"compare", baseJSON, slowJSON, "--threshold", "five"}, `"five" is not a percentage`},
		{[]string{"compare", baseJSON, slowJSON, "--alpha", "2"}, "--alpha: 2 is not between 0 and 1"},
		{[]string{"compare", baseJSON, slowJSON, "--format", "html"}, `unknown format "html"`},
		{[]string{"compare", baseJSON, slowJSON, "--format", "mardown"}, `unknown format "mardown" (valid: json, markdown, text); did you mean "markdown"?`},
		{[]string{"compare", baseJSON, "missing.json"}, "missing.json: no such file"},
		{[]string{"merge"}, "no JSON reports given"},
		{[]string{"merge", notJSON}, "reading JSON report"},
	} {
		status, stdout, stderr := runCmd(t, tc.args...)
		if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, status, stdout, stderr, tc.want)
		}
	}
}

func readFixture(t *testing.T, path string) *report.Report {
	t.Helper()
	rep, err := readReport(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func writeFixture(t *testing.T, dir, name string, rep *report.Report) string {
	t.Helper()
	path := filepath.Join(dir, name)
	err := cli.WriteOutput(path, nil, func(w io.Writer) error { return report.Write(w, rep) })
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportsRefuseHostileInput: report, compare and merge read their
// inputs as hostile: data after the report, and a null (not finite)
// statistic in a run whose status is ok, exit 2 naming the file, the run
// and the field; a failed run may carry null.
func TestReportsRefuseHostileInput(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(baseJSON)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, f func(run map[string]any)) string {
		var doc map[string]any
		if err := json.Unmarshal(base, &doc); err != nil {
			t.Fatal(err)
		}
		f(doc["runs"].([]any)[1].(map[string]any)) // sqrt.Sunk#avgt, ok
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	trailing := filepath.Join(dir, "trailing.json")
	if err := os.WriteFile(trailing, append(append([]byte{}, base...), "\n{}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	nullScore := edit("null-score.json", func(run map[string]any) {
		run["primary_metric"].(map[string]any)["score"] = nil
	})
	nullStdev := edit("null-stdev.json", func(run map[string]any) {
		run["primary_metric"].(map[string]any)["stdev"] = nil
	})
	failedNull := edit("failed-null.json", func(run map[string]any) {
		run["status"], run["error"] = "failed", "fork 1: fork exited with status 3"
		run["primary_metric"].(map[string]any)["score"] = nil
	})
	refusals := []struct {
		file, want string
	}{
		{trailing, trailing + ": report: reading JSON report: data after the report"},
		{nullScore, nullScore + ": report: runs[1] (sqrt.Sunk#avgt): primary_metric.score is null in a run whose status is ok"},
		{nullStdev, nullStdev + ": report: runs[1] (sqrt.Sunk#avgt): primary_metric.stdev is null in a run whose status is ok"},
	}
	out := filepath.Join(dir, "out")
	for _, tc := range refusals {
		for _, args := range [][]string{
			{"report", tc.file},
			{"compare", baseJSON, tc.file},
			{"compare", tc.file, baseJSON},
			{"merge", tc.file, "--out", out},
		} {
			status, stdout, stderr := runCmd(t, args...)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", args, status, stdout, stderr, tc.want)
			}
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("merge wrote %s from a refused input", out)
	}
	// A failed run's null is no statistic: read and rendered.
	if status, stdout, stderr := runCmd(t, "report", failedNull); status != exitOK || !strings.Contains(stdout, "fork exited with status 3") {
		t.Errorf("report of a failed run with null: status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
	if status, _, stderr := runCmd(t, "merge", failedNull, "--out", out); status != exitOK {
		t.Errorf("merge of a failed run with null: status %d, stderr %q", status, stderr)
	}
}

// mdTight drops the spaces that pad Markdown table cells, so that a test
// can look for a row whatever the columns' widths.
func mdTight(md string) string { return regexp.MustCompile(` *\| *`).ReplaceAllString(md, "|") }
