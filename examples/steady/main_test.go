package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/diag"
	"github.com/benchspec/benchspec/internal/suitetest"
)

func TestMain(m *testing.M) { suitetest.Main(m) }

// A cache that grows before every iteration makes avgt's time per call rise
// with every iteration: NOT_STEADY, and not the spread it causes.
func TestGrowsTripsNotSteady(t *testing.T) {
	rep, _ := suitetest.Run(t, `
version: 1
name: steady-test
defaults: {forks: 1}
benchmarks:
  - include: '^cache\.Grows$'
    modes: [avgt]
    warmup:      {iterations: 0}
    measurement: {iterations: 25, time: 10ms}
`)
	if diff := cmp.Diff([]string{diag.NotSteady}, suitetest.Codes(rep)["cache.Grows"]); diff != "" {
		t.Errorf("cache.Grows diagnostics (-want +got):\n%s", diff)
	}
}
