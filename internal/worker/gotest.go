package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/perf/benchfmt"

	"github.com/benchspec/benchspec/internal/child"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// RunTestBinary runs the fork of a package benchmark (a.Run.GoTest): one
// process of the package's test binary, started by this fork process,
// which stays in between as the fork the parent knows. The parent's
// protocol, timeouts and process-group kill apply unchanged: the test
// binary is in this process's group, dies with it (Pdeathsig), gets the
// SIGQUIT of a timeout forwarded (its goroutine dump is what the parent
// reads), and its stdout and stderr are this process's output.
//
// The test binary runs in the package's directory, as under go test,
// with this process's environment (the spec's env) and
//
//	-test.run=^$ -test.bench=^Func$ -test.benchtime=T -test.count=W+M -test.benchmem
//
// T is the measurement time (ss: "Nx", N the batch size); the plan has
// checked that the warmup iterations are alike. Its output is read as it
// comes with benchfmt: each result line is one iteration, the first W of
// them warmup iterations, mapped as RunTesting maps a testing.Benchmark
// call (TimeNs is ns/op × N, to the 4 or 5 digits go test prints).
//
// The cpu, heap, mutex and block profilers become -test.cpuprofile,
// -test.memprofile, -test.mutexprofile and -test.blockprofile; unlike in
// a suite fork they cover the warmup iterations too. A benchmark that
// runs sub-benchmarks (b.Run) fails: its results are not one benchmark's.
func RunTestBinary(a *protocol.Assignment, emit func(*protocol.Iteration) error) (*Output, error) {
	g := a.Run.GoTest
	if g == nil {
		return nil, errors.New("not a package benchmark")
	}
	args, profiles := testBinaryArgs(a)
	cmd := exec.Command(g.Binary, args...)
	cmd.Dir = g.Dir
	cmd.Env = childEnv()
	cmd.Stderr = os.Stderr
	// The test binary is killed when this process dies, even by SIGKILL;
	// it stays in this process's group, which the parent kills.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	cmd.Stdout = pw
	exited, err := child.StartLocked(cmd)
	pw.Close()
	if err != nil {
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

	n, perr := readResults(io.TeeReader(pr, os.Stdout), a, emit)
	if perr != nil {
		cmd.Process.Kill()
	}
	werr := <-exited
	total := a.Run.Settings.Warmup.Iterations + a.Run.Settings.Measurement.Iterations
	switch {
	case perr != nil:
		return nil, perr
	case werr != nil:
		return nil, fmt.Errorf("the test binary (%s) %s after %d of %d iterations; its output is below", g.Func, exitText(werr), n, total)
	case n == 0:
		return nil, fmt.Errorf("%s reported no result: did it call b.Skip? (go test prints why with -test.v)", g.Func)
	case n < total:
		return nil, fmt.Errorf("%s reported %d of %d iterations", g.Func, n, total)
	}
	out := &Output{}
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

// testBinaryArgs are the test binary's flags for the assignment, and the
// profile files they ask for, by kind.
func testBinaryArgs(a *protocol.Assignment) ([]string, map[string]string) {
	s := &a.Run.Settings
	benchtime := s.Measurement.Time.String()
	if a.Run.Mode == spec.ModeSingleShot {
		benchtime = strconv.Itoa(max(s.Measurement.BatchSize, 1)) + "x"
	}
	args := []string{
		"-test.run=^$",
		"-test.bench=^" + regexp.QuoteMeta(a.Run.GoTest.Func) + "$",
		"-test.benchtime=" + benchtime,
		"-test.count=" + strconv.Itoa(s.Warmup.Iterations+s.Measurement.Iterations),
		"-test.benchmem",
	}
	profiles := map[string]string{}
	if a.ProfileDir == "" {
		return args, profiles
	}
	flags := map[string]string{"cpu": "cpuprofile", "heap": "memprofile", "mutex": "mutexprofile", "block": "blockprofile"}
	for _, kind := range s.Profilers {
		if f, ok := flags[kind]; ok {
			path := filepath.Join(a.ProfileDir, fmt.Sprintf("%s.fork%d.%s.pprof", unsafeChars.ReplaceAllString(a.Run.Key, "_"), a.Fork, kind))
			profiles[kind] = path
			args = append(args, "-test."+f+"="+path)
		}
	}
	return args, profiles
}

// readResults reads the test binary's output and emits each of the
// benchmark's result lines as an iteration; it returns how many there
// were.
func readResults(r io.Reader, a *protocol.Assignment, emit func(*protocol.Iteration) error) (int, error) {
	s := &a.Run.Settings
	want := plan.PackageName(a.Run.GoTest.Func)
	br := benchfmt.NewReader(r, a.Run.GoTest.Func)
	n := 0
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue // a syntax error is output that is not a result
		}
		if base := string(res.Name.Base()); base != want || strings.Contains(string(res.Name), "/") {
			return n, fmt.Errorf("%s runs sub-benchmarks (%s): benchspec runs a package's top-level benchmarks only, not those of b.Run; exclude it", a.Run.GoTest.Func, res.Name)
		}
		n++
		phase, index := protocol.PhaseWarmup, n
		if n > s.Warmup.Iterations {
			phase, index = protocol.PhaseMeasurement, n-s.Warmup.Iterations
		}
		if phase == protocol.PhaseMeasurement && index > s.Measurement.Iterations {
			return n, fmt.Errorf("%s reported more than the %d iterations asked for", a.Run.GoTest.Func, s.Warmup.Iterations+s.Measurement.Iterations)
		}
		it, err := resultIteration(res, a)
		if err != nil {
			return n, err
		}
		it.Phase, it.Index = phase, index
		if err := emit(&it); err != nil {
			return n, err
		}
	}
	return n, br.Err()
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
	if !found || res.Iters <= 0 {
		return protocol.Iteration{}, fmt.Errorf("%s: a result without ns/op or iterations: %q", a.Run.GoTest.Func, res.Name)
	}
	s := &a.Run.Settings
	return testingIteration(res.Iters, nsPerOp*float64(res.Iters), metrics, a.Run.Mode,
		float64(s.OpsPerInvocation), float64(max(s.Measurement.BatchSize, 1))), nil
}

// childEnv is this process's environment without the assignment: the
// test binary is no benchspec worker.
func childEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != protocol.EnvAssignment && k != protocol.EnvGuard {
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
