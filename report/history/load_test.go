package history

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/history/historytest"
	"github.com/benchspec/benchspec/report/history/index"
	"github.com/benchspec/benchspec/report/reporttest"
	"github.com/benchspec/benchspec/spec"
)

var night0 = time.Date(2026, 1, 15, 2, 30, 0, 0, time.UTC)

// realNights returns nights of the real report in testdata with runs
// runs, each night's iterations spread 1 % around its score, as on a
// quiet machine (the report was measured on a busy one).
func realNights(t testing.TB, runs int) *historytest.Nights {
	t.Helper()
	n, err := historytest.FromFile(filepath.Join("testdata", "real-report.json"), runs, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// planted writes nights nights into dir, run 0 at factor 1.08 from night
// change on (0: never), every run with 1 % noise of a fixed seed.
func planted(t testing.TB, n *historytest.Nights, dir string, nights, change int) {
	t.Helper()
	if err := n.Planted(dir, night0, nights, change, 1.08); err != nil {
		t.Fatal(err)
	}
}

func load(t *testing.T, dirs ...string) *History {
	t.Helper()
	read, err := Read(dirs)
	if err != nil {
		t.Fatal(err)
	}
	h := Build(read)
	Analyze(h, Options{})
	return h
}

func TestPlantedRegressionInRealReports(t *testing.T) {
	dir := t.TempDir()
	n := realNights(t, 2)
	planted(t, n, dir, 12, 7)
	h := load(t, dir)
	if len(h.Batches) != 12 || len(h.Series) != 2 {
		t.Fatalf("%d batches, %d series; want 12 and 2", len(h.Batches), len(h.Series))
	}
	got := map[string][][3]any{}
	for i := range h.Series {
		got[h.Series[i].Key] = where(&h.Series[i])
	}
	want := map[string][][3]any{n.Keys()[0]: {{6, 7, Regression}}, n.Keys()[1]: {}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("change points (-want +got):\n%s", diff)
	}
	if r := h.Regressions(); len(r) != 1 || r[0].Key != n.Keys()[0] {
		t.Errorf("regressions %v, want %s", r, n.Keys()[0])
	}
	cp := h.Series[0].ChangePoints[0]
	if cp.LabelBefore != "night-6" || cp.LabelAfter != "night-7" {
		t.Errorf("change between %q and %q, want night-6 and night-7", cp.LabelBefore, cp.LabelAfter)
	}
}

func TestNoChangeInRealReports(t *testing.T) {
	dir := t.TempDir()
	planted(t, realNights(t, 2), dir, 12, 0)
	h := load(t, dir)
	for _, s := range h.Series {
		if len(s.ChangePoints) != 0 || s.Regressed {
			t.Errorf("%s: change points %v, regressed %v; want none", s.Key, where(&s), s.Regressed)
		}
	}
}

// writeReport writes rep as a report of a results directory.
func writeReport(t *testing.T, dir string, rep *report.Report, name string) {
	t.Helper()
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mini(start time.Time, runs ...report.Run) *report.Report {
	return &report.Report{SchemaVersion: report.SchemaVersion, Complete: true, Suite: "nightly",
		Env: report.Env{Start: start, TimerResolutionNs: report.NaN(), TimerOverheadNs: report.NaN()}, Runs: runs}
}

func okRun(key, unit string, score float64) report.Run {
	b, mode, _ := strings.Cut(key, ":")
	return report.Run{Key: key, Benchmark: b, Mode: spec.Mode(mode), Threads: 1, Status: report.StatusOK,
		Primary: &report.Metric{Score: report.Float(score), ScoreError: report.Float(score / 100), ScoreUnit: unit,
			Count: 5, Stdev: report.Float(score / 200), Min: report.Float(score), Max: report.Float(score),
			RawData: [][]report.Float{{report.Float(score), report.Float(score), report.Float(score), report.Float(score), report.Float(score)}}}}
}

func failedRun(key string) report.Run {
	b, mode, _ := strings.Cut(key, ":")
	return report.Run{Key: key, Benchmark: b, Mode: spec.Mode(mode), Threads: 1, Status: report.StatusFailed, Error: "boom"}
}

// TestSeriesGapsLateStartsAndUnits builds series from reports of
// changing plans: a run that starts late, one that failed once, one
// whose spec changed its time unit; batches in the order they started,
// whatever their file names.
func TestSeriesGapsLateStartsAndUnits(t *testing.T) {
	dir := t.TempDir()
	day := 24 * time.Hour
	writeReport(t, dir, mini(night0, okRun("a:avgt", "us/op", 2), okRun("b:avgt", "ns/op", 10)), "20260115T023000Z.json")
	writeReport(t, dir, mini(night0.Add(day), okRun("a:avgt", "ns/op", 2100), failedRun("b:avgt")), "20260116T023000Z.json")
	// Named before the others, started after them.
	writeReport(t, dir, mini(night0.Add(2*day), okRun("a:avgt", "ns/op", 2050), okRun("b:avgt", "ns/op", 11), okRun("c:thrpt", "ops/us", 3)), "20250101T000000Z.json")
	for _, name := range []string{"latest.json", "notes.json", "20260115T023000Z.json.journal"} {
		os.WriteFile(filepath.Join(dir, name), []byte("not a report"), 0o644)
	}
	h := load(t, dir)
	type pt struct {
		Batch int
		Score float64
	}
	got := map[string][]pt{}
	failed := map[string][]int{}
	for _, s := range h.Series {
		got[s.Key+" "+s.Unit] = []pt{}
		for _, p := range s.Points {
			got[s.Key+" "+s.Unit] = append(got[s.Key+" "+s.Unit], pt{p.Batch, float64(p.Score)})
		}
		failed[s.Key] = s.FailedBatches
	}
	want := map[string][]pt{
		"a:avgt ns/op":   {{1, 2000}, {2, 2100}, {3, 2050}},
		"b:avgt ns/op":   {{1, 10}, {3, 11}},
		"c:thrpt ops/us": {{3, 3}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]int{"a:avgt": {}, "b:avgt": {2}, "c:thrpt": {}}, failed); diff != "" {
		t.Errorf("failed batches (-want +got):\n%s", diff)
	}
	if h.Batches[2].Files[0] != filepath.Join(dir, "20250101T000000Z.json") {
		t.Errorf("batch 3 is %v, want the report started last", h.Batches[2].Files)
	}
}

// TestShardsMakeOneBatch checks that the shards of one plan, run one
// after the other, are one batch, and the next night's shards the next.
func TestShardsMakeOneBatch(t *testing.T) {
	dir := t.TempDir()
	shard := func(start time.Time, i int, run report.Run) *report.Report {
		r := mini(start, run)
		r.Shard = &plan.ShardInfo{Index: i, Count: 2, PlanSHA256: "p1", PlannedRuns: []string{"a:avgt", "b:avgt"}}
		return r
	}
	writeReport(t, dir, shard(night0, 1, okRun("a:avgt", "ns/op", 1)), "20260115T023000Z-shard-1-of-2.json")
	writeReport(t, dir, shard(night0.Add(time.Minute), 2, okRun("b:avgt", "ns/op", 2)), "20260115T023100Z-shard-2-of-2.json")
	writeReport(t, dir, shard(night0.Add(24*time.Hour), 2, okRun("b:avgt", "ns/op", 2)), "20260116T023000Z-shard-2-of-2.json")
	writeReport(t, dir, shard(night0.Add(24*time.Hour+time.Minute), 1, okRun("a:avgt", "ns/op", 1)), "20260116T023100Z-shard-1-of-2.json")
	h := load(t, dir)
	var files [][]string
	for _, b := range h.Batches {
		var names []string
		for _, f := range b.Files {
			names = append(names, filepath.Base(f))
		}
		files = append(files, names)
	}
	want := [][]string{
		{"20260115T023000Z-shard-1-of-2.json", "20260115T023100Z-shard-2-of-2.json"},
		{"20260116T023000Z-shard-2-of-2.json", "20260116T023100Z-shard-1-of-2.json"},
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("batches (-want +got):\n%s", diff)
	}
}

// TestResultsRoot reads a results directory with a directory per suite.
func TestResultsRoot(t *testing.T) {
	root := t.TempDir()
	for _, suite := range []string{"one", "two"} {
		os.Mkdir(filepath.Join(root, suite), 0o755)
		r := mini(night0, okRun("a:avgt", "ns/op", 1))
		r.Suite = suite
		writeReport(t, filepath.Join(root, suite), r, "20260115T023000Z.json")
	}
	h := load(t, root)
	var names []string
	for _, s := range h.Series {
		names = append(names, s.Name())
	}
	if diff := cmp.Diff([]string{"one a:avgt", "two a:avgt"}, names); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
}

// TestBadInput checks that what is not a results directory, and a report
// that is not one, are errors that name the file.
func TestBadInput(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "x")
	os.WriteFile(file, nil, 0o644)
	corrupt := t.TempDir()
	os.WriteFile(filepath.Join(corrupt, "20260115T023000Z.json"), []byte(`{"schema_version": 1, "runs": [`), 0o644)
	noSuite := t.TempDir()
	os.WriteFile(filepath.Join(noSuite, "20260115T023000Z.json"), []byte(`{"schema_version": 1, "runs": []}`), 0o644)
	huge := t.TempDir()
	f, _ := os.Create(filepath.Join(huge, "20260115T023000Z.json"))
	f.Truncate(index.MaxReportBytes + 1) // sparse: refused before a byte is read
	f.Close()
	for _, tc := range []struct{ name, dir, want string }{
		{"no reports", empty, "no reports"},
		{"a file", file, "is not a directory"},
		{"missing", filepath.Join(empty, "nope"), "no such file"},
		{"corrupt report", corrupt, "20260115T023000Z.json: report: reading JSON report"},
		{"not a batch's report", noSuite, "20260115T023000Z.json: not a batch's report"},
		{"too large", huge, "more than a report may have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read([]string{tc.dir})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestHistoryGroup: a group's rows are series of their own, by key: a
// change of the readers' row is the readers' series'.
func TestHistoryGroup(t *testing.T) {
	n, err := historytest.New(report.Build(reporttest.Group(300)), 4)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i, f := range []float64{1, 1, 0.8} {
		if _, err := n.Write(dir, night0.Add(time.Duration(i)*24*time.Hour), "", func(run int) float64 {
			return map[bool]float64{true: f, false: 1}[run == 2]
		}); err != nil {
			t.Fatal(err)
		}
	}
	dirs, err := Read([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	h := Build(dirs)
	var keys []string
	for _, s := range h.Series {
		keys = append(keys, s.Key)
		last, first := s.Points[len(s.Points)-1].Score, s.Points[0].Score
		if want := map[bool]float64{true: 0.8, false: 1}[s.Key == n.Keys()[2]]; math.Abs(float64(last/first)-want) > 1e-9 {
			t.Errorf("%s: newest score %v of first %v, want ×%v", s.Key, float64(last), float64(first), want)
		}
	}
	if diff := cmp.Diff(n.Keys(), keys); diff != "" || !strings.HasPrefix(keys[2], "rw:read/") {
		t.Errorf("series keys (-the report's rows +got):\n%s", diff)
	}
}
