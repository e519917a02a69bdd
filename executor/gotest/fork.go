package gotest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/benchspec/benchspec/executor/internal/child"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
)

// RunTestBinary runs the fork of a package benchmark (a.Run.GoTest) as a
// child process of the package's test binary, this process staying in
// between as the fork the parent knows, so the parent's protocol,
// timeouts and group kill apply unchanged (the child is in our group,
// dies with us by Pdeathsig, gets a timeout's SIGQUIT forwarded, shares
// our stdout/stderr). It runs in the package's directory with the spec's
// env. benchspec's driver in it (driver.go) selects the one
// benchmark by an exact per-level -test.bench pattern and runs each
// iteration as one testing.RunBenchmarks call with the phase's time (ss:
// "Nx", N the batch size), so b.N ramps up as under go test; each result
// line, on a private descriptor and never stdout, is mapped as RunTesting
// maps a call (TimeNs = ns/op × N). A skip is a SkipError with go test's
// reason. Profilers map to -test.*profile and cover the warmup too.
func RunTestBinary(a *protocol.Assignment, emit func(*protocol.Iteration) error) (*worker.Output, error) {
	g := a.Run.GoTest
	if g == nil {
		return nil, errors.New("not a package benchmark")
	}
	if g.Driver == "" || g.Name == "" {
		return nil, fmt.Errorf("%s: the plan predates benchspec's test driver; plan the batch again", g.Func)
	}
	job, err := testJob(a).Encode()
	if err != nil {
		return nil, err
	}
	args, profiles := testBinaryArgs(a)
	cmd := exec.Command(g.Binary, args...)
	cmd.Dir = g.Dir
	cmd.Env = append(childEnv(), EnvJob+"="+job)
	cmd.Stderr = os.Stderr
	// In verbose mode testing prints a benchmark's log (b.Skip's and
	// b.Fatal's reason) straight to stdout, not with its "--- SKIP"
	// line: stdout passes through, and its last log lines are kept as the
	// reason's text. Nothing on stdout is ever read as a number.
	logs := &logLines{}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = outW
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		logs.copy(os.Stdout, outR)
	}()
	// The test binary is killed when this process dies, even by SIGKILL;
	// it stays in this process's group, which the parent kills.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	cmd.ExtraFiles = []*os.File{pw}
	exited, err := child.StartLocked(cmd)
	pw.Close()
	outW.Close()
	if err != nil {
		outR.Close()
		return nil, fmt.Errorf("starting the test binary %s: %w", g.Binary, err)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGQUIT, syscall.SIGTERM)
	defer func() {
		signal.Stop(sigs) // no delivery after it returns
		close(sigs)
	}()
	go func() {
		for sig := range sigs {
			cmd.Process.Signal(sig)
		}
	}()

	n, perr := readResults(pr, a, emit)
	if perr != nil {
		cmd.Process.Kill()
	}
	io.Copy(io.Discard, pr)
	werr := <-exited
	// A process the benchmark started in a session of its own may hold
	// the output pipe open: the parent kills it after this fork, which
	// must not wait for it.
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}
	outR.Close()
	var skip *worker.SkipError
	if errors.As(perr, &skip) && skip.Reason == "" {
		skip.Reason = logs.last()
		if skip.Reason == "" {
			skip.Reason = "b.SkipNow, without a message"
		}
	}
	var failed *FailError
	if errors.As(perr, &failed) && failed.Log == "" {
		failed.Log = logs.last()
	}
	total := a.Run.Settings.Warmup.Iterations + a.Run.Settings.Measurement.Iterations
	switch {
	case perr != nil:
		return nil, perr
	case werr != nil:
		return nil, fmt.Errorf("the test binary (%s) %s after %d of %d iterations; its output is below", g.Name, exitText(werr), n, total)
	case n < total:
		return nil, fmt.Errorf("%s reported %d of %d iterations", g.Name, n, total)
	}
	out := &worker.Output{}
	for kind, path := range profiles {
		if _, err := os.Stat(path); err == nil {
			if out.Profiles == nil {
				out.Profiles = map[string]string{}
			}
			out.Profiles[kind] = path
		}
	}
	return out, nil
}

// testJob is the driver's job for the assignment: the benchmark's exact
// pattern, and each phase with its own -test.benchtime.
func testJob(a *protocol.Assignment) *Job {
	s := &a.Run.Settings
	g := a.Run.GoTest
	job := &Job{Benchmarks: []Bench{{Func: g.Func, Pattern: ExactPattern(g.Name), Skip: ExactSkip(g.Name)}}}
	for _, p := range []struct {
		name string
		it   protocol.Phase
	}{{protocol.PhaseWarmup, s.Warmup}, {protocol.PhaseMeasurement, s.Measurement}} {
		if p.it.Iterations == 0 {
			continue
		}
		bt := p.it.Time.String() // as Go writes durations, which testing parses back exactly
		if !a.Run.Mode.TimedIterations() {
			bt = Times(max(p.it.BatchSize, 1))
		}
		job.Phases = append(job.Phases, Phase{Name: p.name, Benchtime: bt, Count: p.it.Iterations})
	}
	return job
}

// testBinaryArgs are the test binary's flags for the assignment, and the
// profile files they ask for, by kind.
func testBinaryArgs(a *protocol.Assignment) ([]string, map[string]string) {
	s := &a.Run.Settings
	args := append(Args(a.Run.GoTest.Driver), "-test.benchmem")
	profiles := map[string]string{}
	if a.ProfileDir == "" {
		return args, profiles
	}
	flags := map[string]string{"cpu": "cpuprofile", "heap": "memprofile", "mutex": "mutexprofile", "block": "blockprofile"}
	for _, kind := range s.Profilers {
		if f, ok := flags[kind]; ok {
			path := protocol.ProfileFile(a.ProfileDir, a.Run.Key, a.Fork, kind)
			profiles[kind] = path
			args = append(args, "-test."+f+"="+path)
		}
	}
	return args, profiles
}

// readResults reads the driver's output and emits each iteration's
// result as an Iteration; it returns how many there were. A skip of the
// benchmark is a *worker.SkipError.
func readResults(r io.Reader, a *protocol.Assignment, emit func(*protocol.Iteration) error) (int, error) {
	s := &a.Run.Settings
	g := a.Run.GoTest
	rd := NewReader(r)
	n := 0
	phase, index := protocol.PhaseWarmup, 0
	if s.Warmup.Iterations == 0 {
		phase = protocol.PhaseMeasurement
	}
	for {
		blk, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if phase == protocol.PhaseWarmup && index == s.Warmup.Iterations {
			phase, index = protocol.PhaseMeasurement, 0
		}
		index++
		if blk.Phase != phase || blk.Index != index || phase == protocol.PhaseMeasurement && index > s.Measurement.Iterations {
			return n, fmt.Errorf("the test binary's driver ran %s iteration %d where %s iteration %d was due", blk.Phase, blk.Index, phase, index)
		}
		res, err := blockResult(blk, rd, g.Name)
		var skip *worker.SkipError
		if errors.As(err, &skip) && n > 0 {
			return n, fmt.Errorf("%s skipped itself in %s iteration %d, after %d iterations with results: %s", g.Name, phase, index, n, skip.Reason)
		}
		if err != nil {
			return n, err
		}
		n++
		it, err := resultIteration(res, a)
		if err != nil {
			return n, err
		}
		it.Phase, it.Index = phase, index
		if err := emit(&it); err != nil {
			return n, err
		}
	}
}

// blockResult is the one result of the benchmark want in an iteration's
// output: a skip of it or of a parent is a *worker.SkipError, a failure an
// error with go test's log, and a result of another benchmark, or none,
// an error.
func blockResult(blk *Block, rd *Reader, want string) (*benchfmt.Result, error) {
	covers := func(name string) bool {
		name = rd.StripProcs(name)
		return name == want || strings.HasPrefix(want, name+"/")
	}
	for _, f := range blk.Fails {
		return nil, &FailError{Name: f.Name, Phase: blk.Phase, Index: blk.Index, Log: f.Log}
	}
	for _, s := range blk.Skips {
		if covers(s.Name) {
			return nil, &worker.SkipError{Reason: s.Log}
		}
	}
	var found *benchfmt.Result
	for _, r := range blk.Results {
		if r.Name != want || found != nil {
			return nil, fmt.Errorf("%s iteration %d of %s: the test binary reported a result for %s; the pattern %s selects %s once", blk.Phase, blk.Index, want, r.Name, ExactPattern(want), want)
		}
		found = r.Result
	}
	if found == nil {
		return nil, fmt.Errorf("%s did not run in %s iteration %d: go test found no benchmark of that name (a sub-benchmark name that changes from run to run cannot be selected)", want, blk.Phase, blk.Index)
	}
	return found, nil
}

func indentLog(s string) string {
	if s == "" {
		return " (no log)"
	}
	return "\n    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// resultIteration maps a result line to an iteration, with its units as
// go test wrote them (benchfmt tidies ns/op to sec/op; OrigUnit keeps it).
func resultIteration(res *benchfmt.Result, a *protocol.Assignment) (protocol.Iteration, error) {
	nsPerOp, found := 0.0, false
	metrics := map[string]float64{}
	for _, v := range res.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		if unit == "ns/op" {
			nsPerOp, found = val, true
			continue
		}
		metrics[unit] = val
	}
	if res.Iters <= 0 {
		return protocol.Iteration{}, fmt.Errorf("%s: a result without iterations: %q", a.Run.GoTest.Name, res.Name)
	}
	s := &a.Run.Settings
	it := worker.TestingIteration(res.Iters, nsPerOp*float64(res.Iters), metrics, a.Run.Mode,
		float64(s.OpsPerInvocation), float64(max(s.Measurement.BatchSize, 1)))
	if !found {
		// b.ReportMetric(0, "ns/op") removes the time per op, which go
		// test accepts: the run has the benchmark's own metrics only.
		if len(metrics) == 0 {
			return protocol.Iteration{}, fmt.Errorf("%s: a result without ns/op and without any other metric: %q", a.Run.GoTest.Name, res.Name)
		}
		it.NoTime = true
	}
	return it, nil
}

// childEnv is this process's environment without the assignment: the
// test binary is no benchspec worker.
func childEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != protocol.EnvAssignment && k != protocol.EnvGuard && k != EnvJob {
			out = append(out, kv)
		}
	}
	return out
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "was killed by signal " + ws.Signal().String()
		}
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	}
	return err.Error()
}

// FailError is a benchmark that failed (b.Fatal, b.Error) in an
// iteration, with testing's log.
type FailError struct {
	Name, Phase string
	Index       int
	Log         string
}

func (e *FailError) Error() string {
	return fmt.Sprintf("%s failed in %s iteration %d:%s", e.Name, e.Phase, e.Index, indentLog(e.Log))
}

// logLines copies a test binary's stdout and keeps its last group of
// testing log lines ("    file_test.go:12: message"), the text of a skip
// or a failure in verbose mode.
type logLines struct {
	mu    sync.Mutex
	group []string
	open  bool // the last line was a log line
}

var logLine = regexp.MustCompile(`^ {4,}\S+\.go:\d+: `)

func (l *logLines) copy(w io.Writer, r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		l.mu.Lock()
		switch {
		case logLine.MatchString(line):
			if !l.open {
				l.group = l.group[:0]
			}
			l.group = append(l.group, strings.TrimSpace(line))
			l.open = true
			if len(l.group) > 20 {
				l.group = l.group[1:]
			}
		default:
			l.open = false
		}
		l.mu.Unlock()
	}
	io.Copy(w, r)
}

func (l *logLines) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.group, "\n")
}
