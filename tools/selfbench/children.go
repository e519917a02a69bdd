package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/worker"
)

// The driver re-executes this binary in a child mode (envChild) for
// everything that must run in a fresh process of its own.
const (
	envChild     = "SELFBENCH_CHILD"
	envBench     = "SELFBENCH_BENCH"     // childTesting: the workload
	envBenchtime = "SELFBENCH_BENCHTIME" // childTesting: -test.benchtime
	envClassic   = "SELFBENCH_CLASSIC"   // childTesting: "1" for the `for range b.N` body
	envStartNs   = "SELFBENCH_START_NS"  // childParts: parent's wall clock at exec, Unix ns

	childTesting = "testing" // testing.Benchmark of one workload; prints testingResult
	childNoop    = "noop"    // exits at once: the cost of a process of this binary
	childParts   = "parts"   // times what a fork does before its benchmark; prints partsResult
)

func child(mode string) int {
	var out any
	var err error
	switch mode {
	case childNoop:
		return 0
	case childTesting:
		out, err = runTesting(os.Getenv(envBench), os.Getenv(envClassic) == "1", os.Getenv(envBenchtime))
	case childParts:
		out, err = measureParts(os.Getenv(envStartNs))
	default:
		err = fmt.Errorf("unknown child mode %q", mode)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "selfbench %s: %v\n", mode, err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		return 1
	}
	return 0
}

// runTesting runs testing.Benchmark on the named body, as `go test
// -bench` would with -test.benchtime.
func runTesting(name string, classic bool, benchtime string) (*testingResult, error) {
	fn, ok := testBody(name, classic)
	if !ok {
		return nil, fmt.Errorf("no testing.B body %q (classic: %v)", name, classic)
	}
	testing.Init()
	if err := flag.Set("test.benchtime", benchtime); err != nil {
		return nil, err
	}
	r := testing.Benchmark(fn)
	if r.N == 0 {
		return nil, fmt.Errorf("testing.Benchmark(%s) failed", name)
	}
	return &testingResult{NsPerOp: float64(r.T) / float64(r.N), N: r.N, T: int64(r.T)}, nil
}

// partsResult is what a fork spends before its benchmark starts, timed
// in a fresh process, and how far the fork's short calibration and
// baseline are from long ones taken right after them in the same process.
type partsResult struct {
	StartNs int64 `json:"start_ns"` // parent's exec to this package's init
	// CalibrateForkNs is worker.CalibrateFork, which every fork runs
	// before its benchmark: the clock calibration and the empty-loop
	// baseline.
	CalibrateForkNs int64 `json:"calibrate_fork_ns"`
	CalibrateNs     int64 `json:"calibrate_ns"` // of which worker.Calibrate (the clock)

	// Setting is the baseline CalibrateFork measured (envBaseline, else
	// worker.ForkBaseline).
	Setting string `json:"setting"`
	// The fork's figures (CalibrateFork) and the reference ones:
	// Calibrate with refRounds rounds of refReads reads, and the floors
	// (fastest iteration) of refBaseline per form.
	OverheadNs, RefOverheadNs     float64
	ResolutionNs, RefResolutionNs float64
	// FloorLoopNs and FloorInvocationsNs are the fastest baseline
	// iteration of each loop form, `for b.Loop()` and `for range
	// b.Invocations()`; DEAD_CODE uses the lower of the two
	// (protocol.TimerCalibration.BaselineFloorNs).
	FloorLoopNs, RefFloorLoopNs               float64
	FloorInvocationsNs, RefFloorInvocationsNs float64
}

// BaselineTimeNs is the empty-loop baseline's share of CalibrateFork.
func (p partsResult) BaselineTimeNs() int64 { return p.CalibrateForkNs - p.CalibrateNs }

// Errors of the fork's floors against the reference ones, as fractions
// (+0.05: the fork's floor is 5 % above the reference).
func (p partsResult) floorLoopError() float64 { return p.FloorLoopNs/p.RefFloorLoopNs - 1 }
func (p partsResult) floorInvocationsError() float64 {
	return p.FloorInvocationsNs/p.RefFloorInvocationsNs - 1
}
func (p partsResult) floorError() float64 {
	return min(p.FloorLoopNs, p.FloorInvocationsNs)/min(p.RefFloorLoopNs, p.RefFloorInvocationsNs) - 1
}

// Reference calibration and baseline (partsResult): the baseline's
// forms take turns, as in a fork, with no warmup (the fork's baseline
// ran just before).
const (
	refRounds, refReads = 7, 20000
)

var refBaseline = worker.BaselineSetting{Warmup: 0, Iterations: 20, Time: time.Millisecond}

// envBaseline, set in the parts child, replaces the fork's baseline
// setting (worker.ForkBaseline) with another, as parseBaselineSetting
// reads it: what the baseline sweep (envBaselineSweep) compares.
const envBaseline = "SELFBENCH_BASELINE"

func measureParts(startNs string) (*partsResult, error) {
	parent, err := strconv.ParseInt(startNs, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", envStartNs, err)
	}
	setting := worker.ForkBaseline
	if v := os.Getenv(envBaseline); v != "" {
		if setting, err = parseBaselineSetting(v); err != nil {
			return nil, fmt.Errorf("%s: %w", envBaseline, err)
		}
	}
	clock := worker.SystemClock()
	t0 := time.Now()
	cal := worker.CalibrateForkWith(clock, setting)
	t1 := time.Now()
	worker.Calibrate(clock) // again, alone: CalibrateFork's first part
	t2 := time.Now()
	ref := worker.CalibrateRounds(clock, refRounds, refReads)
	refBase := worker.CalibrateForkWith(clock, refBaseline)
	return &partsResult{
		StartNs:         processStart.UnixNano() - parent,
		CalibrateForkNs: int64(t1.Sub(t0)),
		CalibrateNs:     int64(t2.Sub(t1)),
		Setting:         setting.String(),
		OverheadNs:      cal.OverheadNs, RefOverheadNs: ref.OverheadNs,
		ResolutionNs: cal.ResolutionNs, RefResolutionNs: ref.ResolutionNs,
		FloorLoopNs: slices.Min(cal.BaselineNs), RefFloorLoopNs: slices.Min(refBase.BaselineNs),
		FloorInvocationsNs: slices.Min(cal.BaselineInvocationsNs), RefFloorInvocationsNs: slices.Min(refBase.BaselineInvocationsNs),
	}, nil
}

// parseBaselineSetting reads "NxD" or "NxD+Ww": N measured iterations of
// duration D (as time.ParseDuration reads it) per loop form, after W
// warmup iterations per form (1 when "+Ww" is left out).
func parseBaselineSetting(v string) (worker.BaselineSetting, error) {
	bad := func(why string) (worker.BaselineSetting, error) {
		return worker.BaselineSetting{}, fmt.Errorf("baseline setting %q: %s; want NxD or NxD+Ww, e.g. 5x100us or 3x50us+0w", v, why)
	}
	s := worker.BaselineSetting{Warmup: 1}
	body, warm, hasWarm := strings.Cut(strings.TrimSpace(v), "+")
	if hasWarm {
		w, ok := strings.CutSuffix(warm, "w")
		n, err := strconv.Atoi(w)
		if !ok || err != nil || n < 0 {
			return bad("the warmup is not a number of iterations followed by w")
		}
		s.Warmup = n
	}
	n, d, ok := strings.Cut(body, "x")
	if !ok {
		return bad("no x between the iterations and their duration")
	}
	var err error
	if s.Iterations, err = strconv.Atoi(n); err != nil || s.Iterations < 1 {
		return bad("the iterations are not a positive number")
	}
	if s.Time, err = time.ParseDuration(d); err != nil || s.Time <= 0 {
		return bad("the duration is not a positive duration")
	}
	return s, nil
}
