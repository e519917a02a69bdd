package main

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/examples/suitetest"
	"github.com/benchspec/benchspec/report/diag"
)

func TestMain(m *testing.M) { suitetest.Main(m) }

// One call of ~100 ns per timed interval is flagged TIMER_RESOLUTION and
// nothing else (what else the clock would distort is not repeated); a
// batch of 1000 calls per interval is not flagged. The warning fails the
// run only with --strict.
func TestOneCallTripsTimerResolution(t *testing.T) {
	rep, status := suitetest.Run(t, timerSpec)
	codes := suitetest.Codes(rep)
	if diff := cmp.Diff([]string{diag.TimerResolution}, codes["timer.OneCall"]); diff != "" {
		t.Errorf("timer.OneCall diagnostics (-want +got):\n%s", diff)
	}
	if slices.Contains(codes["timer.Batch"], diag.TimerResolution) {
		t.Errorf("timer.Batch: %v, want no %s with 1000 calls per timed interval", codes["timer.Batch"], diag.TimerResolution)
	}
	if status != 0 {
		t.Errorf("exit status %d, want 0: warnings fail a run only with --strict", status)
	}
	if _, status := suitetest.Run(t, timerSpec, "--strict"); status != 1 {
		t.Errorf("--strict: exit status %d, want 1", status)
	}
}

const timerSpec = `
version: 1
name: timer-test
defaults: {modes: [ss], forks: 1}
benchmarks:
  - include: '^timer\.OneCall$'
    warmup:      {iterations: 5, batch_size: 1}
    measurement: {iterations: 20, batch_size: 1}
  - include: '^timer\.Batch$'
    warmup:      {iterations: 1, batch_size: 1000}
    measurement: {iterations: 3, batch_size: 1000}
    ops_per_invocation: 1000
`
