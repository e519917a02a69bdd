package executor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
)

// In a duet the two forks of a pair run at the same time and each waits
// for the other before every iteration: a fork of 1 ms iterations beside
// one of 300 ms iterations starts its third only after the other's
// second has ended, so it lives at least 600 ms (run one after the
// other it would take milliseconds). The 300 ms fork sleeps rather than
// computes, so neither fork gets most of a CPU: each duet counts as
// starved, and after three in a row the batch says so and runs its
// last pair one fork after the other.
// A partner that fails frees the other, which goes on alone.
func TestDuetHoldsIterationsInStep(t *testing.T) {
	p := testPlan(4, "slow", "empty")
	p.Runs[0].Settings.Measurement.Time = 300 * time.Millisecond
	p.Runs[0].Settings.Measurement.Iterations = 3
	p.Runs[1].Settings.Measurement.Iterations = 3
	var warnings []string
	got, err := executor.Execute(context.Background(), p, executor.Options{
		Order: executor.Order{Kind: executor.OrderDuet, Seed: 3},
		Warn:  func(msg string) { warnings = append(warnings, msg) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 8 {
		t.Fatalf("%d forks, want 8: %v", len(got), forkIDs(got))
	}
	for _, f := range got {
		if f.Failed() {
			t.Fatalf("fork %d/%d: %s\n%s", f.Run, f.Fork, f.Err, f.StderrTail)
		}
		if f.Run == 1 && f.Fork == 1 && f.Wall < 600*time.Millisecond {
			t.Errorf("the 1 ms fork lived %v beside 300 ms iterations: it did not wait for its partner", f.Wall)
		}
		// Each fork records whether it ran in a duet: the first three
		// pairs did, the last ran one fork after the other.
		if want := f.Fork < 4; f.Duet != want {
			t.Errorf("fork %d/%d: duet %v, want %v", f.Run, f.Fork, f.Duet, want)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "the remaining pairs run one fork after the other") {
		t.Errorf("warnings %q, want one: the duet of a sleeping benchmark is starved", warnings)
	}

	p = testPlan(2, "fails", "slow")
	p.Runs[1].Settings.Measurement.Iterations = 3
	got, err = executor.Execute(context.Background(), p, executor.Options{Order: executor.Order{Kind: executor.OrderDuet, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var ok []protocol.ForkResult
	for _, f := range got {
		if f.Run == 1 && !f.Failed() {
			ok = append(ok, f)
		}
	}
	if len(ok) != 2 || len(ok[0].Iterations) != 3 {
		t.Errorf("beside a failing partner: %v, want both forks of the other run measured", forkIDs(got))
	}
}
