package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report/history"
	"github.com/benchspec/benchspec/report/history/historytest"
	"github.com/benchspec/benchspec/report/history/index"
)

func TestMain(m *testing.M) { suitetest.Main(m) }

// tinySpec is history.yaml made quick: twelve batches take seconds.
const tinySpec = `
version: 1
name: history
defaults:
  forks: 2
  warmup:      {iterations: 0}
  measurement: {iterations: 3, time: 5ms}
  time_unit: ns
  timeout: 10s
benchmarks:
  - include: '^(planted|steady)\.Work$'
    modes: [avgt]
`

// TestPlantedRegressionEndToEnd runs twelve real batches of the suite
// into one results directory, six with planted.Work at cost 1.00 and six
// at 1.08, each labelled, and reads their history.
//
// What real runs show here is the pipeline: every batch's report keeps
// its label and sources, run --results-dir keeps the index fresh, and
// history makes of the twelve batches two series of twelve points in
// order. Whether an 8 % step stands out of the noise depends on the
// machine: on a busy CI machine the scores scatter by tens of percent,
// and each night's own spread rightly says so. So the change points are
// asserted on the same twelve reports with their scores set to the
// planted levels and a quiet machine's 1 % noise (historytest), once
// with the step and once without; tools/scripts/planted-regression.sh shows
// the real timings on a quiet machine.
func TestPlantedRegressionEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("twelve real batches: not in -short")
	}
	root := t.TempDir()
	spec := suitetest.WriteSpec(t, tinySpec)
	for i := 1; i <= 12; i++ {
		cost := "1.00"
		if i >= 7 {
			cost = "1.08"
		}
		r, err := suitetest.Command([]string{EnvCost + "=" + cost}, "run", "--quiet", "--results-dir", root, "--label", "night-"+strconv.Itoa(i), spec)
		if err != nil {
			t.Fatal(err)
		}
		if r.Code != 0 {
			t.Fatalf("batch %d: exit %d\n%s", i, r.Code, r.Stderr)
		}
	}
	dir := filepath.Join(root, "history")
	if _, stale, err := index.Load(dir); err != nil || stale {
		t.Errorf("index after twelve batches: stale %v, error %v; want run --results-dir to have kept it fresh", stale, err)
	}
	read, err := history.Read([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	h := history.Build(read)
	var labels []string
	for _, b := range h.Batches {
		labels = append(labels, b.Label)
	}
	want := []string{"night-1", "night-2", "night-3", "night-4", "night-5", "night-6", "night-7", "night-8", "night-9", "night-10", "night-11", "night-12"}
	if diff := cmp.Diff(want, labels); diff != "" {
		t.Errorf("batch labels in order (-want +got):\n%s", diff)
	}
	for _, s := range h.Series {
		if len(s.Points) != 12 || s.Unit != "ns/op" {
			t.Errorf("%s: %d points in %s, want 12 in ns/op", s.Name(), len(s.Points), s.Unit)
		}
	}
	latest, err := historytest.ReadReport(filepath.Join(dir, "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if latest.Label != "night-12" || len(latest.Sources) != 1 || latest.Sources[0].Module != "github.com/benchspec/benchspec" {
		t.Errorf("latest.json: label %q, sources %+v; want night-12 and the suite binary's module", latest.Label, latest.Sources)
	}

	for _, tc := range []struct {
		name   string
		change int // first night at 1.08; 0 never
		want   map[string]int
	}{
		{"planted at night 7", 7, map[string]int{"planted.Work:avgt": 7, "steady.Work:avgt": 0}},
		{"no change", 0, map[string]int{"planted.Work:avgt": 0, "steady.Work:avgt": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := plantedHistory(t, read[0], tc.change)
			got := map[string]int{}
			for _, s := range h.Series {
				got[s.Key] = 0
				for _, cp := range s.ChangePoints {
					if got[s.Key] != 0 || cp.Direction != history.Regression {
						t.Errorf("%s: change points %+v, want at most one regression", s.Key, s.ChangePoints)
					}
					got[s.Key] = cp.Batch
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("batch of the change point per series, 0 for none (-want +got):\n%s", diff)
			}
			if regressed := len(h.Regressions()) > 0; regressed != (tc.change > 0) {
				t.Errorf("regressed %v, want %v", regressed, tc.change > 0)
			}
		})
	}
}

// plantedHistory rewrites the real reports of d in a new directory with
// every run at night 1's score, times 1.08 for planted.Work from night
// change on, times 1 % noise of a fixed seed, and analyses them.
func plantedHistory(t *testing.T, d history.Dir, change int) *history.History {
	t.Helper()
	out := filepath.Join(t.TempDir(), "history")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var level []float64 // night 1's scores
	for i, e := range d.Entries {
		rep, err := historytest.ReadReport(filepath.Join(d.Path, e.File))
		if err != nil {
			t.Fatal(err)
		}
		// The step goes with the night's position: entries come in the
		// order the batches ran, also when two started in one second
		// (<stamp>.json, then <stamp>-2.json, which sorts first by name).
		if want := "night-" + strconv.Itoa(i+1); rep.Label != want {
			t.Fatalf("entry %d is %s, labelled %q; want %q: entries out of the order the batches ran", i, e.File, rep.Label, want)
		}
		n, err := historytest.New(rep, len(rep.Runs))
		if err != nil {
			t.Fatal(err)
		}
		n.Spread = 0.01
		if i == 0 {
			for j := range rep.Runs {
				level = append(level, n.Score(j))
			}
		}
		err = n.WriteFile(filepath.Join(out, e.File), rep.Env.Start, rep.Label, func(j int) float64 {
			f := level[j] / n.Score(j) * (1 + 0.01*rng.NormFloat64())
			if rep.Runs[j].Benchmark == "planted.Work" && change > 0 && i+1 >= change {
				f *= 1.08
			}
			return f
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read, err := history.Read([]string{out})
	if err != nil {
		t.Fatal(err)
	}
	h := history.Build(read)
	history.Analyze(h, history.Options{})
	return h
}
