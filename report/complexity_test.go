package report_test

import (
	"fmt"
	"maps"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// TestFitsPerSweep: a fit per value of the other params, none for a
// sweep of 3 sizes or without complexity, and a named class tested.
func TestFitsPerSweep(t *testing.T) {
	square := func(n float64) float64 { return 2 * n * n }
	nlogn := func(n float64) float64 { return n * math.Log2(n) }
	var runs []report.Run
	runs = append(runs, sweep("sq", "n^2", square, map[string]string{"k": "a"}, 10, 20, 40, 80)...)
	runs = append(runs, sweep("sq", "n^2", square, map[string]string{"k": "b"}, 10, 20, 40, 80)...)
	runs = append(runs, sweep("sort", "n", nlogn, nil, 100, 1000, 10000, 100000)...)
	runs = append(runs, sweep("few", "auto", square, nil, 10, 20, 40)...)
	runs = append(runs, sweep("off", "", square, nil, 10, 20, 40, 80)...)
	type got struct {
		Name, K, Class, Next string
		Coef                 float64
		Apart                bool
		Holds                bool
	}
	var fits []got
	for _, c := range report.Fits(runs) {
		fits = append(fits, got{c.Benchmark, c.Params["k"], c.Class, c.Next, math.Round(float64(c.Coefficient)*100) / 100, c.Apart, *c.Holds})
	}
	want := []got{
		{"sq", "a", "n^2", "nlogn", 2, true, true},
		{"sq", "b", "n^2", "nlogn", 2, true, true},
		{"sort", "", "nlogn", "n", 1, true, false},
	}
	if diff := cmp.Diff(want, fits); diff != "" {
		t.Errorf("fits (-want +got):\n%s", diff)
	}
}

// sweep is the avgt runs of benchmark name over n (complexity: class)
// whose time per op is cost(n) ns ± 1 % over 20 forks, with the other
// params others.
func sweep(name, class string, cost func(n float64) float64, others map[string]string, ns ...float64) []report.Run {
	var runs []report.Run
	for _, n := range ns {
		params := map[string]string{"n": fmt.Sprint(n)}
		maps.Copy(params, others)
		score := report.Float(cost(n))
		runs = append(runs, report.Run{Key: fmt.Sprint(name, params), Benchmark: name, Mode: spec.ModeAverageTime,
			Params: params, Status: report.StatusOK, Settings: spec.Settings{TimeUnit: "ns", Complexity: class},
			Primary: &report.Metric{Score: score, ScoreError: score / 100, Variance: &report.Variance{Forks: 20}}})
	}
	return runs
}
