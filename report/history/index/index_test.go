package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/history/historytest"
)

var night0 = time.Date(2026, 1, 15, 2, 30, 0, 0, time.UTC)

func writeReport(t *testing.T, dir, name string, score float64, mod time.Time) {
	t.Helper()
	writeReportAt(t, dir, name, score, mod, night0)
}

func writeReportAt(t *testing.T, dir, name string, score float64, mod, start time.Time) {
	t.Helper()
	rep := &report.Report{SchemaVersion: report.SchemaVersion, Complete: true, Suite: "nightly", Label: name,
		Sources: []report.Source{{Module: "example.com/m", VCS: "git", Revision: "abc", Time: "2026-01-14T00:00:00Z"}},
		Env:     report.Env{Start: start, TimerResolutionNs: report.NaN(), TimerOverheadNs: report.NaN()},
		Runs: []report.Run{{Key: "a:avgt", Benchmark: "a", Mode: "avgt", Threads: 1, Status: report.StatusOK,
			Primary: &report.Metric{Score: report.Float(score), ScoreError: 1, Stdev: 0.5, Count: 6, ScoreUnit: "ns/op",
				Min: report.Float(score - 1), Max: report.Float(score + 1), RawData: [][]report.Float{
					{report.Float(score - 1), report.Float(score - 0.5), report.Float(score)},
					{report.Float(score), report.Float(score + 0.5), report.Float(score + 1)}},
				Variance: &report.Variance{Forks: 2, ForkMeans: []report.Float{report.Float(score) - 0.5, report.Float(score) + 0.5}}}}}}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// TestLoadOrder checks that entries come in the order the batches
// started: run --results-dir names the second batch of one second
// <stamp>-2.json, which sorts before <stamp>.json by name.
func TestLoadOrder(t *testing.T) {
	dir := t.TempDir()
	writeReportAt(t, dir, "20260115T023000Z.json", 1, night0, night0.Add(100*time.Millisecond))
	writeReportAt(t, dir, "20260115T023000Z-2.json", 2, night0, night0.Add(700*time.Millisecond))
	writeReportAt(t, dir, "20260115T023001Z.json", 3, night0, night0.Add(1200*time.Millisecond))
	entries, _ := mustLoad(t, dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.File)
	}
	if diff := cmp.Diff([]string{"20260115T023000Z.json", "20260115T023000Z-2.json", "20260115T023001Z.json"}, got); diff != "" {
		t.Errorf("entries in start order (-want +got):\n%s", diff)
	}
}

// TestSummarizeForkSpread checks that an entry carries what a history
// point's own variance is made of: the forks and the spread of their
// means, not only the iteration scores' spread.
func TestSummarizeForkSpread(t *testing.T) {
	dir := t.TempDir()
	writeReport(t, dir, "20260115T023000Z.json", 10, night0)
	entries, _ := mustLoad(t, dir)
	r := entries[0].Runs[0]
	if r.Forks != 2 || math.Abs(float64(r.ForkStdev)-math.Sqrt(0.5)) > 1e-12 || r.Count != 6 || r.Stdev != 0.5 {
		t.Errorf("run summary: forks %d, fork stdev %v, count %d, stdev %v; want 2, √0.5 (fork means 9.5 and 10.5), 6, 0.5",
			r.Forks, r.ForkStdev, r.Count, r.Stdev)
	}
	one := Summarize(&report.Report{Runs: []report.Run{{Key: "a:avgt", Primary: &report.Metric{Score: 1,
		Variance: &report.Variance{Forks: 1, ForkMeans: []report.Float{1}}}}}})
	if r := one.Runs[0]; r.Forks != 1 || r.ForkStdev.Valid() {
		t.Errorf("one fork: forks %d, fork stdev %v; want 1 and null (one fork has no spread of means)", r.Forks, r.ForkStdev)
	}
}

func mustLoad(t *testing.T, dir string) ([]Entry, bool) {
	t.Helper()
	e, stale, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e, stale
}

func saveIndex(t *testing.T, dir string, entries []Entry) {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, entries); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func scores(entries []Entry) map[string]float64 {
	out := map[string]float64{}
	for _, e := range entries {
		out[e.File] = float64(e.Runs[0].Score)
	}
	return out
}

// TestIndexFollowsTheReports checks that the index is used only while
// it matches the reports: a missing index, a changed report, a new one
// and a vanished one each make Load read the reports and ask for a
// rewrite, and the entries are always the reports'.
func TestIndexFollowsTheReports(t *testing.T) {
	dir := t.TempDir()
	t1 := time.Date(2026, 1, 15, 3, 0, 0, 0, time.UTC)
	writeReport(t, dir, "20260115T023000Z.json", 10, t1)
	writeReport(t, dir, "20260116T023000Z.json", 20, t1)
	entries, stale := mustLoad(t, dir)
	if !stale {
		t.Errorf("no index: not stale")
	}
	saveIndex(t, dir, entries)
	again, stale := mustLoad(t, dir)
	if stale {
		t.Errorf("index just written: stale")
	}
	if diff := cmp.Diff(entries, again); diff != "" {
		t.Errorf("entries from the index (-from reports +from index):\n%s", diff)
	}
	if again[0].Revision != "abc" || again[0].RevisionTime != "2026-01-14T00:00:00Z" || again[0].Label != "20260115T023000Z.json" {
		t.Errorf("entry %+v: want revision, its time and label kept", again[0].Summary)
	}

	writeReport(t, dir, "20260116T023000Z.json", 25, t1.Add(time.Second)) // rewritten (run --resume)
	writeReport(t, dir, "20260117T023000Z.json", 30, t1)
	got, stale := mustLoad(t, dir)
	if diff := cmp.Diff(map[string]float64{"20260115T023000Z.json": 10, "20260116T023000Z.json": 25, "20260117T023000Z.json": 30}, scores(got)); !stale || diff != "" {
		t.Errorf("changed and new report: stale %v, scores (-want +got):\n%s", stale, diff)
	}
	saveIndex(t, dir, got)
	os.Remove(filepath.Join(dir, "20260115T023000Z.json"))
	got, stale = mustLoad(t, dir)
	if diff := cmp.Diff(map[string]float64{"20260116T023000Z.json": 25, "20260117T023000Z.json": 30}, scores(got)); !stale || diff != "" {
		t.Errorf("vanished report: stale %v, scores (-want +got):\n%s", stale, diff)
	}
}

// TestIndexDamage checks that a damaged index costs only time: a torn
// line, a wrong header, an entry that is not whole, or an index too large
// to read is ignored where damaged, and the reports are read instead.
func TestIndexDamage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(index []byte) []byte
	}{
		{"torn append", func(b []byte) []byte { return append(b, `{"file":"20260118T0`...) }},
		{"other version", func(b []byte) []byte {
			return bytes.Replace(b, []byte(fmt.Sprintf(`"index_version":%d`, Version)), []byte(`"index_version":99`), 1)
		}},
		// Version 1 entries lack the forks and their spread: rebuilt.
		{"version 1", func(b []byte) []byte {
			return bytes.Replace(b, []byte(fmt.Sprintf(`"index_version":%d`, Version)), []byte(`"index_version":1`), 1)
		}},
		{"not whole", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(`"key":"a:avgt"`), []byte(`"key":""`)) }},
		{"no header", func(b []byte) []byte { return b[bytes.IndexByte(b, '\n')+1:] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeReport(t, dir, "20260115T023000Z.json", 10, night0)
			entries, _ := mustLoad(t, dir)
			var buf bytes.Buffer
			Encode(&buf, entries)
			os.WriteFile(filepath.Join(dir, Name), tc.damage(buf.Bytes()), 0o644)
			got, stale := mustLoad(t, dir)
			if diff := cmp.Diff(entries, got); !stale || diff != "" {
				t.Errorf("stale %v (want true), entries (-want +got):\n%s", stale, diff)
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		dir := t.TempDir()
		writeReport(t, dir, "20260115T023000Z.json", 10, night0)
		f, _ := os.Create(filepath.Join(dir, Name))
		f.Truncate(MaxIndexBytes + 1)
		f.Close()
		if got, stale := mustLoad(t, dir); !stale || len(got) != 1 {
			t.Errorf("stale %v, %d entries; want the report read and a rewrite asked for", stale, len(got))
		}
	})
}

// TestAppend checks run --results-dir's way of adding to the index: the
// first append writes the header, a later line for the same file wins,
// and an index with lines to spare asks to be compacted.
func TestAppend(t *testing.T) {
	dir := t.TempDir()
	writeReport(t, dir, "20260115T023000Z.json", 10, night0)
	e, err := ReadReport(filepath.Join(dir, "20260115T023000Z.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Append(dir, e); err != nil {
		t.Fatal(err)
	}
	if _, stale := mustLoad(t, dir); stale {
		t.Errorf("appended to a new index: stale")
	}
	writeReport(t, dir, "20260115T023000Z.json", 12, night0.Add(time.Second))
	e2, _ := ReadReport(filepath.Join(dir, "20260115T023000Z.json"))
	Append(dir, e2)
	got, stale := mustLoad(t, dir)
	if !stale || float64(got[0].Runs[0].Score) != 12 {
		t.Errorf("stale %v, score %v; want the later line's 12 and a rewrite to drop the earlier", stale, got[0].Runs[0].Score)
	}
}

// TestIndexIsSmall bounds what the index costs a history: a night of
// fifty runs of a real report (three forks of five iterations each)
// takes a small fraction of the report's bytes.
func TestIndexIsSmall(t *testing.T) {
	real, err := historytest.ReadReport(filepath.Join("..", "testdata", "real-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := historytest.New(real, 50)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, err := n.Write(dir, night0, "night-1", func(int) float64 { return 1 })
	if err != nil {
		t.Fatal(err)
	}
	e, err := ReadReport(path)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := Line(&e)
	if perRun := len(line) / 50; perRun > 350 || len(line)*10 > int(e.Size) {
		t.Errorf("index line %d bytes (%d per run) for a report of %d bytes: want ≤ 350 per run and a tenth of the report", len(line), perRun, e.Size)
	}
}
