package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
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
	envScale     = "SELFBENCH_SCALE"     // childFrontend: the case

	childTesting  = "testing"  // testing.Benchmark of one workload; prints testingResult
	childNoop     = "noop"     // exits at once: the cost of a process of this binary
	childParts    = "parts"    // times what a fork does before its benchmark; prints partsResult
	childFrontend = "frontend" // parses and plans a big spec; prints frontendResult
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
	case childFrontend:
		out, err = measureFrontend(os.Getenv(envScale))
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

	// The fork's figures (CalibrateFork) and the reference ones:
	// Calibrate with 7 rounds of 20 000 reads, the baseline's median over
	// 5 iterations of 10 ms.
	OverheadNs, RefOverheadNs     float64
	ResolutionNs, RefResolutionNs float64
	BaselineNs, RefBaselineNs     float64 // medians
	// BaselineSpread is the fork baseline's own error: (max − min) over
	// the median of its iterations.
	BaselineSpread float64
}

// BaselineTimeNs is the empty-loop baseline's share of CalibrateFork.
func (p partsResult) BaselineTimeNs() int64 { return p.CalibrateForkNs - p.CalibrateNs }

// Reference calibration and baseline (partsResult).
const (
	refRounds, refReads = 7, 20000
	refBaselineIters    = 5
	refBaselineTime     = 10 * time.Millisecond
)

func measureParts(startNs string) (*partsResult, error) {
	parent, err := strconv.ParseInt(startNs, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", envStartNs, err)
	}
	clock := worker.SystemClock()
	t0 := time.Now()
	cal := worker.CalibrateFork(clock)
	t1 := time.Now()
	worker.Calibrate(clock) // again, alone: CalibrateFork's first part
	t2 := time.Now()
	ref := worker.CalibrateRounds(clock, refRounds, refReads)
	refBase := worker.Baseline(clock, refBaselineIters, refBaselineTime)
	return &partsResult{
		StartNs:         processStart.UnixNano() - parent,
		CalibrateForkNs: int64(t1.Sub(t0)),
		CalibrateNs:     int64(t2.Sub(t1)),
		OverheadNs:      cal.OverheadNs, RefOverheadNs: ref.OverheadNs,
		ResolutionNs: cal.ResolutionNs, RefResolutionNs: ref.ResolutionNs,
		BaselineNs: median(cal.BaselineNs), RefBaselineNs: median(refBase),
		BaselineSpread: (slices.Max(cal.BaselineNs) - slices.Min(cal.BaselineNs)) / median(cal.BaselineNs),
	}, nil
}
