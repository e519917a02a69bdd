package executor_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// killHostAfter kills the forks: 0 host once the run with index after
// has ended, and waits until it is gone: the host broken between runs,
// after that run's end was reported.
type killHostAfter struct {
	nopObserver
	after int
}

func (k killHostAfter) ForkEnd(r *plan.Run, f *protocol.ForkResult) {
	if r.Index != k.after {
		return
	}
	syscall.Kill(f.PID, syscall.SIGKILL)
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(f.PID, 0) == nil && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// A run of the forks: 0 host is not failed for a host that broke before
// it began: it runs again in a new host, and the batch says so.
func TestHostBrokenBetweenRunsIsReplaced(t *testing.T) {
	p := testPlan(0, "empty", "empty", "empty")
	p.Runs[1].Key, p.Runs[2].Key = "second:avgt", "third:avgt"
	var warned []string
	forks, err := executor.Execute(context.Background(), p, executor.Options{
		Observer: killHostAfter{after: 0},
		Warn:     func(msg string) { warned = append(warned, msg) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(forks) != 3 {
		t.Fatalf("%d results, want 3", len(forks))
	}
	for _, f := range forks {
		if f.Failed() {
			t.Errorf("run %d failed: %s", f.Run, f.Err)
		}
	}
	if forks[0].PID == forks[1].PID || forks[1].PID != forks[2].PID {
		t.Errorf("host pids %d, %d, %d: want the second and third in a new host", forks[0].PID, forks[1].PID, forks[2].PID)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "broke between runs") || !strings.Contains(warned[0], "before second:avgt began") {
		t.Errorf("warnings %q, want one naming the run that ran in a new host", warned)
	}
}
