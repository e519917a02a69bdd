package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// envInProcess, set to a number of rounds, makes the binary compare the
// four loop forms of map.Lookup, sqrt.Sunk and sort.Ints1000 inside one process, on
// one fixture: benchspec's `for b.Loop()` and `for range b.Invocations()`
// (a worker fork run in-process, one 5 ms iteration) and testing.B's
// `for b.Loop()` and `for range b.N` (testing.Benchmark, -test.benchtime
// 5ms), one of each per round, the first rotating. A third body, map.Lookup
// with i += 3, is the control for what `for range b.N` gains on
// map.Lookup by merging the body's i with its own index. Item 2 compares fresh processes, whose
// figures also differ by what each process draws (a map's layout follows
// its hash seed and the runtime's per-process hash key); here every form
// measures the same map at the same addresses, so what is left between
// them is the loop. Each form's 10th-percentile window leaves preempted
// windows out, which makes the comparison usable on a busy machine.
const envInProcess = "SELFBENCH_IN_PROCESS"

// inProcessWindow is the length of one measured window.
const inProcessWindow = 5 * time.Millisecond

// loopForms are one workload's bodies in the four loop forms, sharing
// the fixture that setup builds.
type loopForms struct {
	name            string
	setup           func()
	loop, inv       func(*worker.B)
	testLoop, testN func(*testing.B)
}

// The fixtures the in-process bodies share.
var (
	ipMap         map[int]int
	ipKeys        []int
	ipInput, ipWk []int
)

// The bodies are those of workloads.go, reading the shared fixture. They
// are written against worker.B, the state benchspec.B holds at offset 0,
// whose Loop and Invocations are the ones benchspec.B's inline to.
var inProcessForms = []loopForms{
	{name: "map.Lookup",
		setup: func() { ipMap, ipKeys = mapFixture() },
		loop: func(b *worker.B) {
			m, keys := ipMap, ipKeys
			i := 0
			for b.Loop() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		},
		inv: func(b *worker.B) {
			m, keys := ipMap, ipKeys
			i := 0
			for range b.Invocations() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		},
		testLoop: func(b *testing.B) {
			m, keys := ipMap, ipKeys
			i := 0
			for b.Loop() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		},
		testN: func(b *testing.B) {
			m, keys := ipMap, ipKeys
			b.ResetTimer()
			i := 0
			for range b.N {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		}},
	// The control: map.Lookup stepping through its keys by 3, so that
	// `for range b.N` cannot merge i with its own index (in map.Lookup it
	// does, and counts one variable where the other forms count two).
	{name: "map.Lookup, i += 3",
		setup: func() { ipMap, ipKeys = mapFixture() },
		loop: func(b *worker.B) {
			m, keys := ipMap, ipKeys
			i := 0
			for b.Loop() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i += 3
			}
		},
		inv: func(b *worker.B) {
			m, keys := ipMap, ipKeys
			i := 0
			for range b.Invocations() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i += 3
			}
		},
		testLoop: func(b *testing.B) {
			m, keys := ipMap, ipKeys
			i := 0
			for b.Loop() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i += 3
			}
		},
		testN: func(b *testing.B) {
			m, keys := ipMap, ipKeys
			b.ResetTimer()
			i := 0
			for range b.N {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i += 3
			}
		}},
	{name: "sqrt.Sunk",
		setup: func() {},
		loop: func(b *worker.B) {
			x := 0.0
			for b.Loop() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		},
		inv: func(b *worker.B) {
			x := 0.0
			for range b.Invocations() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		},
		testLoop: func(b *testing.B) {
			x := 0.0
			for b.Loop() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		},
		testN: func(b *testing.B) {
			x := 0.0
			for range b.N {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		}},
	{name: "sort.Ints1000",
		setup: func() { ipInput, ipWk = sortFixture() },
		loop: func(b *worker.B) {
			input, work := ipInput, ipWk
			for b.Loop() {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		},
		inv: func(b *worker.B) {
			input, work := ipInput, ipWk
			for range b.Invocations() {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		},
		testLoop: func(b *testing.B) {
			input, work := ipInput, ipWk
			for b.Loop() {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		},
		testN: func(b *testing.B) {
			input, work := ipInput, ipWk
			b.ResetTimer()
			for range b.N {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		}},
}

// inProcessFormNames are the forms in the order they are reported.
var inProcessFormNames = []string{
	"benchspec `for b.Loop()`",
	"benchspec `for range b.Invocations()`",
	"testing.B `for b.Loop()`",
	"testing.B `for range b.N`",
}

func inProcessMain(arg string) int {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "in-process: "+format+"\n", args...) }
	rounds, err := strconv.Atoi(arg)
	if err != nil || rounds < 1 {
		logf("%s=%q: want a number of rounds, at least 1 (e.g. 120)", envInProcess, arg)
		return 2
	}
	if os.Getenv("XEXP_SHIELD") != "" {
		fmt.Fprintln(os.Stderr, "shield:", worker.ShieldParent(os.Getppid(), os.Getppid()))
	}
	start, before := time.Now(), snapshotCPU()
	windows := map[string][][]float64{}
	for _, f := range inProcessForms {
		logf("%s: %d rounds …", f.name, rounds)
		w, err := inProcess(f, rounds)
		if err != nil {
			logf("%s: %v", f.name, err)
			return 1
		}
		windows[f.name] = w
	}
	used, stolen := others(before, snapshotCPU(), runtime.NumCPU())
	quiet := fmt.Sprintf("other processes used %.0f %% of the CPUs meanwhile, steal %.0f %%", 100*used, 100*stolen)
	if used < 0 {
		quiet = "the load of other processes is unknown (no /proc/stat)"
	}
	fmt.Printf("Loop forms in one process, %d rounds of %s windows, %s. The run took %s; %s.\n\n",
		rounds, inProcessWindow, start.Format("2006-01-02 15:04 MST"), time.Since(start).Round(time.Second), quiet)
	writeInProcess(os.Stdout, windows)
	return 0
}

// inProcess measures f's four forms round-robin, the first rotating, and
// returns each form's windows in ns/op, in inProcessFormNames' order.
func inProcess(f loopForms, rounds int) ([][]float64, error) {
	f.setup()
	testing.Init()
	if err := flag.Set("test.benchtime", inProcessWindow.String()); err != nil {
		return nil, err
	}
	s := spec.Settings{Forks: 1, Settings: protocol.Settings{Threads: 1, OpsPerInvocation: 1,
		Warmup:      spec.Iterations{Iterations: 1, Time: inProcessWindow / 4, BatchSize: 1},
		Measurement: spec.Iterations{Iterations: 1, Time: inProcessWindow, BatchSize: 1}}}
	a := &protocol.Assignment{Run: (&plan.Run{Key: f.name, Benchmark: f.name, Mode: spec.ModeAverageTime, Settings: s}).Fork(), Fork: 1}
	clock, rnd := worker.SystemClock(), worker.SystemRand()
	out := make([][]float64, len(inProcessFormNames))
	record := func(form int, step func() (float64, error)) func(int) error {
		return func(int) error {
			v, err := step()
			out[form] = append(out[form], v)
			return err
		}
	}
	forkStep := func(fn worker.Func) func() (float64, error) {
		return func() (float64, error) {
			var nsOp float64
			_, err := worker.RunFork(a, fn, clock, rnd, func(it *protocol.Iteration) error {
				if it.Phase == protocol.PhaseMeasurement {
					nsOp = it.TimeNs / it.Ops
				}
				return nil
			})
			if err == nil && nsOp <= 0 {
				err = fmt.Errorf("%s: no measurement iteration", f.name)
			}
			return nsOp, err
		}
	}
	testStep := func(fn func(*testing.B)) func() (float64, error) {
		return func() (float64, error) {
			r := testing.Benchmark(fn)
			if r.N == 0 {
				return 0, fmt.Errorf("%s: testing.Benchmark failed", f.name)
			}
			return float64(r.T) / float64(r.N), nil
		}
	}
	err := alternate(rounds,
		record(0, forkStep(f.loop)),
		record(1, forkStep(f.inv)),
		record(2, testStep(f.testLoop)),
		record(3, testStep(f.testN)))
	return out, err
}

// writeInProcess prints one Markdown row per workload and form: the
// 10th-percentile and median window, and the 10th percentile against
// that of `for range b.N`.
func writeInProcess(w io.Writer, windows map[string][][]float64) {
	fmt.Fprintln(w, "| workload | loop | 10th percentile | median | 10th percentile / `for range b.N`'s |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, f := range inProcessForms {
		forms := windows[f.name]
		if len(forms) != len(inProcessFormNames) {
			continue
		}
		ref := percentile(forms[3], 0.1)
		for i, name := range inProcessFormNames {
			p := percentile(forms[i], 0.1)
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", f.name, name, ns(p), ns(median(forms[i])), ratio(p/ref))
		}
	}
}

// percentile is the q-quantile of xs (the nearest rank below).
func percentile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}
