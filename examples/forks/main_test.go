package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report/diag"
)

func TestMain(m *testing.M) { suitetest.Main(m) }

// forks: 0 is flagged IN_PROCESS, a fresh fork is not. (How much the
// process's history distorts heap.Churn is a timing, measured by the
// example's specs, not asserted here.)
func TestInProcessIsFlagged(t *testing.T) {
	for _, tt := range []struct {
		forks int
		want  bool
	}{{0, true}, {1, false}} {
		rep, _ := suitetest.Run(t, fmt.Sprintf(`
version: 1
name: forks-test
defaults: {modes: [avgt], forks: %d}
benchmarks:
  - include: '^heap\.Churn$'
    warmup:      {iterations: 1, time: 10ms}
    measurement: {iterations: 3, time: 10ms}
`, tt.forks))
		codes, ok := suitetest.Codes(rep)["heap.Churn"]
		if !ok {
			t.Fatalf("forks: %d: no heap.Churn run in the report", tt.forks)
		}
		if got := slices.Contains(codes, diag.InProcess); got != tt.want {
			t.Errorf("forks: %d: %v, want %s: %v", tt.forks, codes, diag.InProcess, tt.want)
		}
	}
}
