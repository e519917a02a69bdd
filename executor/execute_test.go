package executor_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// The test binary is its own suite: started as a fork it runs the worker
// on the benchmarks below, started as a guard it guards.
func TestMain(m *testing.M) {
	lookup := func(name string) (worker.Func, bool) {
		fn, ok := benchmarks[name]
		return fn, ok
	}
	if os.Getenv(protocol.EnvAssignment) != "" {
		os.Exit(worker.Serve(lookup))
	}
	if os.Getenv(protocol.EnvHost) != "" {
		os.Exit(worker.ServeHost(worker.Bodies(lookup)))
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
	// cwd logs its working directory and the number of entries in it
	// (logLine), then leaves a file there.
	"cwd": func(b *worker.B) {
		wd, err := os.Getwd()
		if err != nil {
			b.Fatalf("%v", err)
		}
		entries, err := os.ReadDir(wd)
		if err != nil {
			b.Fatalf("%v", err)
		}
		logLine(b, "%s %d", wd, len(entries))
		os.WriteFile("left-behind", nil, 0o644)
		for b.Loop() {
		}
	},
	// exe logs the path of the binary it runs from, that file's SHA-256
	// and mode (logLine).
	"exe": func(b *worker.B) {
		exe, err := os.Executable()
		if err != nil {
			b.Fatalf("%v", err)
		}
		sum, err := filehash.SHA256(exe)
		if err != nil {
			b.Fatalf("%v", err)
		}
		fi, err := os.Stat(exe)
		if err != nil {
			b.Fatalf("%v", err)
		}
		logLine(b, "%s %s %v", exe, sum, fi.Mode().Perm())
		for b.Loop() {
		}
	},
}

// logLine appends a line to the file EXECUTOR_TEST_LOG names.
func logLine(b *worker.B, format string, args ...any) {
	f, err := os.OpenFile(os.Getenv("EXECUTOR_TEST_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatalf("%v", err)
	}
	fmt.Fprintf(f, format+"\n", args...)
	f.Close()
}

// executeLogged runs two runs of forks forks of bench, a benchmark that
// logs a line (logLine), with opts, and returns the lines: one a fork.
func executeLogged(t *testing.T, bench string, forks int, opts executor.Options) []string {
	t.Helper()
	log := filepath.Join(t.TempDir(), "log")
	p := testPlan(forks, bench, bench)
	for i := range p.Runs {
		p.Runs[i].Settings.Env = map[string]string{"EXECUTOR_TEST_LOG": log}
	}
	got, err := executor.Execute(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if f.Failed() {
			t.Fatalf("fork %d/%d: %s\n%s", f.Run, f.Fork, f.Err, f.StderrTail)
		}
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2*forks {
		t.Fatalf("%d forks logged a line, want %d:\n%s", len(lines), 2*forks, data)
	}
	return lines
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

// The guard removes the directory of the forks' copy of the suite binary
// the parent named, when its stdin ends (the parent killed); nothing
// else: not a directory of another name, not a relative path.
func TestGuardRemovesTheImageAtEOF(t *testing.T) {
	tmp := t.TempDir()
	image := filepath.Join(tmp, "benchspec-exe-1")
	other := filepath.Join(tmp, "other")
	relative := filepath.Join(tmp, "benchspec-exe-2")
	for _, d := range []string{image, other, relative} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "suite"), []byte("x"), 0o500); err != nil {
			t.Fatal(err)
		}
	}
	guard := exec.Command(os.Args[0])
	guard.Dir = tmp
	guard.Env = append(os.Environ(), protocol.EnvGuard+"=1")
	guard.Stdin = strings.NewReader(fmt.Sprintf("r%s\nr%s\nrbenchspec-exe-2\n", image, other))
	out, err := guard.Output()
	if err != nil || string(out) != "benchspec guard ready\n" {
		t.Fatalf("guard: %v, output %q", err, out)
	}
	if _, err := os.Stat(image); !os.IsNotExist(err) {
		t.Errorf("the image directory is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(other, "suite")); err != nil {
		t.Errorf("the guard removed a directory not named benchspec-exe-*: %v", err)
	}
	if _, err := os.Stat(filepath.Join(relative, "suite")); err != nil {
		t.Errorf("the guard removed a directory named by a relative path: %v", err)
	}
}

// A run with a precision grows one fork at a time while Grow asks for
// it, and never beyond its MaxForks, whatever Grow says; a run without
// one is never asked.
func TestExecuteGrowsRunsWithAPrecision(t *testing.T) {
	p := testPlan(2, "empty", "empty")
	p.Runs[1].Key = "empty#2"
	p.Runs[0].Settings.Precision = spec.Precision{Error: 0.01, MaxForks: 4, MaxTime: time.Hour}
	var asked []int
	grow := func(r *plan.Run, forks []protocol.ForkResult) executor.Growth {
		if r.Index != 0 {
			t.Errorf("Grow asked about run %d, which has no precision", r.Index)
		}
		asked = append(asked, len(forks))
		return executor.Growth{More: true} // never precise: the bound must stop it
	}
	forks, err := executor.Execute(context.Background(), p, executor.Options{Grow: grow})
	if err != nil {
		t.Fatal(err)
	}
	perRun := map[int][]int{}
	for _, f := range forks {
		if f.Failed() {
			t.Errorf("run %d fork %d failed: %s", f.Run, f.Fork, f.Err)
		}
		perRun[f.Run] = append(perRun[f.Run], f.Fork)
	}
	if diff := cmp.Diff(map[int][]int{0: {1, 2, 3, 4}, 1: {1, 2}}, perRun); diff != "" {
		t.Errorf("forks per run (-want +got):\n%s", diff)
	}
	// Asked after the planned forks (2) and after each added one until
	// the bound (3); at 4 the bound answers.
	if diff := cmp.Diff([]int{2, 3}, asked); diff != "" {
		t.Errorf("Grow asked with these fork counts (-want +got):\n%s", diff)
	}

	// Precise after the third fork: it stops there.
	asked = nil
	forks, err = executor.Execute(context.Background(), p, executor.Options{Grow: func(r *plan.Run, fs []protocol.ForkResult) executor.Growth {
		asked = append(asked, len(fs))
		return executor.Growth{More: len(fs) < 3}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(forks); n != 3+2 || !cmp.Equal(asked, []int{2, 3}) {
		t.Errorf("%d forks, asked at %v; want 3 + 2 forks, asked at 2 and 3", n, asked)
	}
}

// Added forks run the measurement iterations Grow asks for, within the
// precision's IterationBound, and never fewer than the run's; the
// journal's check accepts them (a resumed batch keeps them), and refuses
// more iterations than the bound.
func TestExecuteGrowsIterations(t *testing.T) {
	p := testPlan(2, "empty")
	p.Runs[0].Settings.Precision = spec.Precision{Error: 0.01, MaxForks: 5, MaxTime: time.Hour, MaxIterations: 5}
	want := []int{1, 4, 9} // asked for the third, fourth and fifth fork
	i := 0
	forks, err := executor.Execute(context.Background(), p, executor.Options{Grow: func(r *plan.Run, fs []protocol.ForkResult) executor.Growth {
		n := want[i]
		i++
		return executor.Growth{More: true, Iterations: n}
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, f := range forks {
		m := 0
		for _, it := range f.Iterations {
			if it.Phase == protocol.PhaseMeasurement {
				m++
			}
		}
		got = append(got, m)
		if err := executor.CheckFork(&p.Runs[0], &f); err != nil {
			t.Errorf("journal check of fork %d: %v", f.Fork, err)
		}
	}
	// 2 planned forks of 2; then 1 → the run's 2, 4, and 9 → the bound 5.
	if diff := cmp.Diff([]int{2, 2, 2, 4, 5}, got); diff != "" {
		t.Errorf("measurement iterations per fork (-want +got):\n%s", diff)
	}
	long := forks[4]
	long.Iterations = append(long.Iterations, long.Iterations[len(long.Iterations)-1])
	long.Iterations[len(long.Iterations)-1].Index++
	if err := executor.CheckFork(&p.Runs[0], &long); err == nil {
		t.Errorf("journal check of a fork with 6 measurement iterations, beyond max_iterations 5: no error")
	}
}

// Every fork of a suite runs in a scratch directory of its own, new and
// empty (the next fork's is made ahead, while a fork starts), and none
// is left after Execute, though each fork left a file in its own.
func TestExecuteScratchDirectories(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	lines := executeLogged(t, "cwd", 3, executor.Options{Executable: os.Args[0]})
	seen := map[string]bool{}
	for _, line := range lines {
		dir, n, _ := strings.Cut(line, " ")
		if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "benchspec-fork-") || n != "0" || seen[dir] {
			t.Errorf("a fork ran in %s with %s entries; want a new, empty benchspec-fork-* directory in %s", dir, n, tmp)
		}
		seen[dir] = true
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("%s left in TMPDIR after Execute", e.Name())
	}
}

// The forks of a batch run a private copy of the suite binary, the same
// bytes, one copy for the whole batch, not writable, in a directory of
// its own under TMPDIR that Execute removes. (Where the copy cannot be
// made they run the binary itself: TestForkImageFallsBack.)
func TestExecuteForksRunACopyOfTheBinary(t *testing.T) {
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	want, err := filehash.SHA256(self)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	lines := executeLogged(t, "exe", 2, executor.Options{Executable: self})
	first, _, _ := strings.Cut(lines[0], " ")
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("bad line %q", line)
		}
		exe, sum, mode := f[0], f[1], f[2]
		if exe != first {
			t.Errorf("forks ran %s and %s: want one copy for the batch", first, exe)
		}
		if exe == self || filepath.Dir(filepath.Dir(exe)) != tmp || !strings.HasPrefix(filepath.Base(filepath.Dir(exe)), "benchspec-exe-") || filepath.Base(exe) != filepath.Base(self) {
			t.Errorf("a fork ran %s; want a copy named %s in a benchspec-exe-* directory of %s", exe, filepath.Base(self), tmp)
		}
		if sum != want {
			t.Errorf("the fork's binary has sha256 %s, the suite binary %s", sum, want)
		}
		if mode != "-r-x------" {
			t.Errorf("the fork's binary has mode %s, want -r-x------", mode)
		}
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("%s left in TMPDIR after Execute", e.Name())
	}
}
