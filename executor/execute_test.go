package executor_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// The test binary is its own suite: started as a fork it runs the worker
// on the benchmarks below, started as a guard it guards.
func TestMain(m *testing.M) {
	if os.Getenv(protocol.EnvAssignment) != "" {
		os.Exit(worker.Serve(func(name string) (worker.Func, bool) {
			fn, ok := benchmarks[name]
			return fn, ok
		}))
	}
	if os.Getenv(protocol.EnvGuard) != "" {
		os.Exit(executor.Guard())
	}
	os.Exit(m.Run())
}

var benchmarks = map[string]worker.Func{
	"empty": func(b *worker.B) {
		for b.Loop() {
		}
	},
	"fails": func(b *worker.B) { b.Fatalf("it fails") },
	"slow": func(b *worker.B) {
		for b.Loop() {
			time.Sleep(time.Millisecond)
		}
	},
}

// testPlan has one run of forks forks per benchmark.
func testPlan(forks int, names ...string) *plan.Plan {
	s := spec.DefaultSettings()
	s.Forks = forks
	s.Warmup.Iterations = 0
	s.Measurement = spec.Iterations{Iterations: 2, Time: 5 * time.Millisecond, BatchSize: 1}
	s.Timeout = 10 * time.Second
	p := &plan.Plan{Suite: "t"}
	for i, n := range names {
		p.Runs = append(p.Runs, plan.Run{Index: i, Key: n + ":avgt", Benchmark: n, Mode: spec.ModeAverageTime, Settings: s})
	}
	return p
}

// forkIDs lists "run/fork pid" of forks.
func forkIDs(forks []protocol.ForkResult) []string {
	var out []string
	for _, f := range forks {
		out = append(out, fmt.Sprintf("%d/%d %v", f.Run, f.Fork, f.Failed()))
	}
	return out
}

// Forks already done are returned in their place and not run again;
// every fork that runs is recorded once.
func TestExecuteSkipsDone(t *testing.T) {
	p := testPlan(3, "empty", "empty")
	done := []protocol.ForkResult{
		{Run: 0, Fork: 1, PID: 1}, {Run: 0, Fork: 3, PID: 3}, {Run: 1, Fork: 2, PID: 5},
		{Run: 7, Fork: 1, PID: 7}, // not in the plan: ignored
	}
	var recorded []protocol.ForkResult
	got, err := executor.Execute(context.Background(), p, executor.Options{
		Executable: os.Args[0],
		Done:       done,
		Guard:      true,
		Record: func(r *plan.Run, f *protocol.ForkResult) error {
			recorded = append(recorded, *f)
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"0/1 false", "0/2 false", "0/3 false", "1/1 false", "1/2 false", "1/3 false"}, forkIDs(got)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0/2 false", "1/1 false", "1/3 false"}, forkIDs(recorded)); diff != "" {
		t.Errorf("recorded (-want +got):\n%s", diff)
	}
	for _, f := range recorded {
		if f.PID <= 7 || len(f.Iterations) != 2 {
			t.Errorf("fork %d/%d: pid %d, %d iterations; want a fresh process that measured", f.Run, f.Fork, f.PID, len(f.Iterations))
		}
	}
}

// A failed fork ends its run; with FailFast, also the batch, even when
// the failure comes from the journal.
func TestExecuteFailFast(t *testing.T) {
	p := testPlan(2, "fails", "empty")
	got, _ := executor.Execute(context.Background(), p, executor.Options{Executable: os.Args[0]})
	if diff := cmp.Diff([]string{"0/1 true", "1/1 false", "1/2 false"}, forkIDs(got)); diff != "" {
		t.Errorf("without FailFast (-want +got):\n%s", diff)
	}
	if got[0].Err != "it fails" {
		t.Errorf("error %q, want the benchmark's", got[0].Err)
	}
	got, _ = executor.Execute(context.Background(), p, executor.Options{Executable: os.Args[0], FailFast: true, Done: got[:1]})
	if diff := cmp.Diff([]string{"0/1 true"}, forkIDs(got)); diff != "" {
		t.Errorf("FailFast with the failure done (-want +got):\n%s", diff)
	}
}

// A recording error stops the batch and is returned.
func TestExecuteRecordError(t *testing.T) {
	p := testPlan(2, "empty")
	got, err := executor.Execute(context.Background(), p, executor.Options{
		Executable: os.Args[0],
		Record:     func(*plan.Run, *protocol.ForkResult) error { return fmt.Errorf("disk full") },
	})
	if len(got) != 1 || err == nil || err.Error() != "recording fork 1 of empty:avgt: disk full" {
		t.Errorf("Execute = %d forks, %v; want the one fork and the error", len(got), err)
	}
}

// A fork cut short by the cancellation is neither returned nor recorded:
// a resumed batch runs it again.
func TestExecuteCancelled(t *testing.T) {
	p := testPlan(1, "empty", "slow", "empty")
	p.Runs[1].Settings.Measurement = spec.Iterations{Iterations: 1, Time: time.Minute, BatchSize: 1}
	ctx, cancel := context.WithCancel(context.Background())
	var recorded int
	obs := &cancelAt{run: 1, cancel: cancel}
	start := time.Now()
	got, err := executor.Execute(ctx, p, executor.Options{
		Executable: os.Args[0],
		Observer:   obs,
		Record:     func(*plan.Run, *protocol.ForkResult) error { recorded++; return nil },
	})
	if err != nil || recorded != 1 {
		t.Errorf("err %v, %d recorded; want the first fork", err, recorded)
	}
	if diff := cmp.Diff([]string{"0/1 false"}, forkIDs(got)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Execute took %s after the cancellation", d)
	}
}

// cancelAt cancels the batch once run has reported an iteration.
type cancelAt struct {
	nopObserver
	run    int
	cancel func()
}

func (c *cancelAt) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	if r.Index == c.run {
		go func() { time.Sleep(100 * time.Millisecond); c.cancel() }()
	}
}

type nopObserver struct{}

func (nopObserver) RunStart(*plan.Run)                            {}
func (nopObserver) ForkStart(*plan.Run, int, int, bool, int, int) {}
func (nopObserver) Iteration(*plan.Run, int, *protocol.Iteration) {}
func (nopObserver) ForkEnd(*plan.Run, *protocol.ForkResult)       {}
func (nopObserver) RunEnd(*plan.Run, []protocol.ForkResult)       {}

// The guard kills the groups it was told about when its stdin ends, as
// it does when the parent dies.
func TestGuardKillsGroupsAtEOF(t *testing.T) {
	sleeper := exec.Command("sleep", "60")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sleeper.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	exited := make(chan struct{})
	go func() { sleeper.Wait(); close(exited) }()

	guard := exec.Command(os.Args[0])
	guard.Env = append(os.Environ(), protocol.EnvGuard+"=1")
	guard.Stdin = strings.NewReader(fmt.Sprintf("+%d\n+1234567\n-1234567\n", sleeper.Process.Pid))
	out, err := guard.Output()
	if err != nil || string(out) != "benchspec guard ready\n" {
		t.Fatalf("guard: %v, output %q", err, out)
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		sleeper.Process.Kill()
		t.Fatal("the guard did not kill the group it watched")
	}
}
