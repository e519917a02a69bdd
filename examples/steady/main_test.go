package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report/diag"
)

func TestMain(m *testing.M) { suitetest.Main(m) }

// A cache that grows before every iteration makes avgt's time per call rise
// with every iteration: NOT_STEADY, and not the spread it causes.
//
// So that a loaded machine cannot hide the trend: 100 iterations let the
// cache grow 100-fold, far more than the process's share of CPU moves
// over the run (up to 10× beside two CPU hogs), and the trend test ranks
// the iterations, so no one slow iteration outweighs it. The slope floor
// is lowered because the slope is compared with the mean, which a single
// stalled iteration inflates (once 3.4 ms a call among 20 µs ones).
func TestGrowsTripsNotSteady(t *testing.T) {
	rep, _ := suitetest.Run(t, `
version: 1
name: steady-test
defaults: {forks: 1, diagnostics: {not_steady_slope: 0.0001}}
benchmarks:
  - include: '^cache\.Grows$'
    modes: [avgt]
    warmup:      {iterations: 0}
    measurement: {iterations: 100, time: 5ms}
`)
	if diff := cmp.Diff([]string{diag.NotSteady}, suitetest.Codes(rep)["cache.Grows"]); diff != "" {
		t.Errorf("cache.Grows diagnostics (-want +got):\n%s", diff)
	}
}
