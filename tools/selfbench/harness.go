package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/host"
	"github.com/benchspec/benchspec/spec"
)

// harness runs benchspec forks and testing.B processes of this binary.
type harness struct {
	ctx  context.Context
	exe  string
	plan *plan.Plan // selfbench.yaml against registry()
	env  report.Env
	log  func(format string, args ...any)
}

func newHarness(ctx context.Context, log func(string, ...any)) (*harness, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	s, err := spec.Parse("tools/selfbench/selfbench.yaml", selfbenchYAML)
	if err != nil {
		return nil, err
	}
	p, err := plan.Build([]*spec.Spec{s}, registry())
	if err != nil {
		return nil, err
	}
	return &harness{ctx: ctx, exe: exe, plan: p, env: host.CollectEnv(), log: log}, nil
}

// run returns the planned run with key, e.g. "empty:avgt".
func (h *harness) run(key string) plan.Run {
	for _, r := range h.plan.Runs {
		if r.Key == key {
			return r
		}
	}
	panic("selfbench.yaml plans no run " + key)
}

// fork runs one fork of r in a batch of its own and returns its result.
func (h *harness) fork(r plan.Run) (protocol.ForkResult, error) {
	r.Index, r.Settings.Forks, r.Settings.WarmupForks = 0, 1, 0
	forks, err := h.forks(r, nil)
	if err != nil {
		return protocol.ForkResult{}, err
	}
	return forks[0], nil
}

// forkInto is a step for alternate: one fork of r, appended to into.
func (h *harness) forkInto(r plan.Run, into *[]protocol.ForkResult) func(int) error {
	return func(int) error {
		f, err := h.fork(r)
		*into = append(*into, f)
		return err
	}
}

// testingInto is a step for alternate: one testing.B process of the body
// named test (with classic, its `for range b.N` form), its ns/op
// appended to into.
func (h *harness) testingInto(test string, classic bool, benchtime time.Duration, into *[]float64) func(int) error {
	return func(int) error {
		v, err := h.testing(test, classic, benchtime)
		*into = append(*into, v)
		return err
	}
}

// forks runs all forks of r as one batch, as `run` does.
func (h *harness) forks(r plan.Run, obs executor.Observer) ([]protocol.ForkResult, error) {
	return h.forksOf(h.exe, r, obs)
}

// forksOf is forks with the forks run by exe, a build of this program.
func (h *harness) forksOf(exe string, r plan.Run, obs executor.Observer) ([]protocol.ForkResult, error) {
	r.Index = 0
	p := &plan.Plan{Suite: h.plan.Suite, Specs: h.plan.Specs, Runs: []plan.Run{r}}
	forks, err := executor.Execute(h.ctx, p, executor.Options{Executable: exe, Observer: obs, Guard: true})
	if err != nil {
		return nil, err
	}
	for _, f := range forks {
		if f.Failed() {
			return nil, fmt.Errorf("%s fork %d: %s\n%s", r.Key, f.Fork, f.Err, f.StderrTail)
		}
	}
	if len(forks) == 0 {
		return nil, fmt.Errorf("%s: no fork ran (interrupted?)", r.Key)
	}
	return forks, nil
}

// join computes the report of r from forks that ran one at a time, as if
// they had been the forks of one run.
func (h *harness) join(r plan.Run, forks []protocol.ForkResult) report.Run {
	r.Index, r.Settings.Forks, r.Settings.WarmupForks = 0, len(forks), 0
	joined := make([]protocol.ForkResult, len(forks))
	for i, f := range forks {
		f.Run, f.Fork = 0, i+1
		joined[i] = f
	}
	p := &plan.Plan{Suite: h.plan.Suite, Specs: h.plan.Specs, Runs: []plan.Run{r}}
	return report.Build(p, joined, h.env).Runs[0]
}

// testingResult is what a testing child prints.
type testingResult struct {
	NsPerOp float64 `json:"ns_per_op"`
	N       int     `json:"n"`
	T       int64   `json:"t_ns"`
}

// testing runs testing.Benchmark on the named body (with classic, its
// `for range b.N` form) in a fresh process of this binary with the given
// -test.benchtime, and returns its ns/op.
func (h *harness) testing(name string, classic bool, benchtime time.Duration) (float64, error) {
	var res testingResult
	c := "0"
	if classic {
		c = "1"
	}
	err := h.child(childTesting, &res, envBench+"="+name, envClassic+"="+c, envBenchtime+"="+benchtime.String())
	return res.NsPerOp, err
}

// child runs this binary in a child mode and decodes the JSON it prints.
func (h *harness) child(mode string, out any, env ...string) error {
	cmd := exec.CommandContext(h.ctx, h.exe)
	cmd.Env = append(append(os.Environ(), envChild+"="+mode), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("child %s %v: %w\n%s", mode, env, err, stderr.Bytes())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		return fmt.Errorf("child %s %v: %w: %q", mode, env, err, stdout.Bytes())
	}
	return nil
}

// alternate runs each of fns once per round, rounds times, starting each
// round with the next one (A B, B A, A B … for two), so that a drift of
// the machine over the rounds weighs on all alike.
func alternate(rounds int, fns ...func(round int) error) error {
	for i := range rounds {
		for j := range fns {
			if err := fns[(i+j)%len(fns)](i); err != nil {
				return err
			}
		}
	}
	return nil
}

// forkScore is a fork's score in its run's unit: the mean of its
// measurement iterations' scores.
func (h *harness) forkScore(r plan.Run, f protocol.ForkResult) float64 {
	return float64(h.join(r, []protocol.ForkResult{f}).Primary.Score)
}

// iterationScores are the measurement iteration scores of a joined run.
func iterationScores(run report.Run) []float64 {
	var out []float64
	for _, fork := range run.Primary.RawData {
		for _, v := range fork {
			out = append(out, float64(v))
		}
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func durations(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(d)
	}
	return out
}
