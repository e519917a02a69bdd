package worker

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Secondary metric units of the gc profiler, per iteration.
const (
	MetricAllocBytes = "B/op"           // bytes allocated per op
	MetricAllocs     = "allocs/op"      // heap allocations per op
	MetricGCCycles   = "gc-cycles"      // GC cycles completed in the iteration
	MetricGCPause    = "gc-pause-ns/op" // stop-the-world pause time per op
)

// cpuProfileHz is the CPU profiler's sampling rate.
const cpuProfileHz = 250

// profiler runs a fork's profilers: gc reads the allocation and GC
// counters around each iteration, outside the timed window; cpu, heap,
// mutex and block write pprof files for the fork's iterations (cpu from the
// first, warmup included; the others at the end).
//
// The gc counters come from runtime.ReadMemStats, not runtime/metrics:
// runtime/metrics counts a small allocation only when its span leaves a
// P's cache, so objects allocated before the window are counted inside it
// when a GC flushes the caches (seen: 1029 B/op for an exact 1024).
// ReadMemStats flushes every cache first and is exact, at the price of a
// brief stop-the-world — outside the timed window, where it cannot
// disturb the measurement. testing.B reads the same counters.
type profiler struct {
	gc    bool
	kinds map[string]bool
	dir   string
	key   string // the run's key
	fork  int
	start runtime.MemStats
	cpu   *os.File
	files map[string]string
}

// newProfiler returns the fork's profiler, nil when it has nothing to do:
// no profiler asked for, or only file-writing ones without a directory.
// A fork without one allocates nothing here (a profiler holds a
// runtime.MemStats, over 5 KiB: in a fresh fork, a page not yet touched).
func newProfiler(names []string, dir, key string, fork int) *profiler {
	if !slices.ContainsFunc(names, func(n string) bool { return n == "gc" || dir != "" }) {
		return nil
	}
	p := &profiler{kinds: map[string]bool{}, dir: dir, files: map[string]string{}}
	for _, n := range names {
		if n == "gc" {
			p.gc = true
		} else {
			p.kinds[n] = true
		}
	}
	p.key, p.fork = key, fork
	if p.gc {
		// The first GC of a process starts the background mark workers,
		// allocating; let that happen before the first window.
		runtime.GC()
	}
	if p.kinds["mutex"] {
		runtime.SetMutexProfileFraction(1)
	}
	if p.kinds["block"] {
		runtime.SetBlockProfileRate(1)
	}
	return p
}

// iterationStart is called, outside the timed window, just before an
// iteration starts.
func (p *profiler) iterationStart() error {
	// The CPU profile covers every iteration, warmup too: the same code,
	// and half as many samples again for ab --explain.
	if p.kinds["cpu"] && p.dir != "" && p.cpu == nil {
		f, err := os.Create(p.path("cpu"))
		if err != nil {
			return fmt.Errorf("cpu profiler: %w", err)
		}
		// 250 Hz, not pprof's 100: 2.5 times the samples of a short
		// fork (what ab --explain needs), at most the timer tick of
		// common kernels (CONFIG_HZ=250), above which samples would be
		// recorded with a period the kernel does not deliver. The
		// runtime then prints one harmless line to the fork's stderr
		// ("cannot set cpu profile rate"): go.dev/issue/79900.
		runtime.SetCPUProfileRate(cpuProfileHz)
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("cpu profiler: %w", err)
		}
		p.cpu = f
	}
	if p.gc {
		runtime.ReadMemStats(&p.start)
	}
	return nil
}

// iterationMetrics is called, outside the timed window, when an iteration
// has ended; ops is the iteration's operation count.
func (p *profiler) iterationMetrics(ops float64) map[string]float64 {
	if !p.gc {
		return nil
	}
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	return map[string]float64{
		MetricAllocBytes: float64(end.TotalAlloc-p.start.TotalAlloc) / ops,
		MetricAllocs:     float64(end.Mallocs-p.start.Mallocs) / ops,
		MetricGCCycles:   float64(end.NumGC - p.start.NumGC),
		MetricGCPause:    float64(end.PauseTotalNs-p.start.PauseTotalNs) / ops,
	}
}

// finish stops the cpu profile and writes the others; it returns the
// files written, by kind.
func (p *profiler) finish() (map[string]string, error) {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			return nil, err
		}
		p.files["cpu"] = p.cpu.Name()
	}
	if p.dir == "" {
		return p.files, nil
	}
	for _, kind := range []string{"heap", "mutex", "block"} {
		if !p.kinds[kind] {
			continue
		}
		if kind == "heap" {
			runtime.GC() // up-to-date statistics, as `go test -memprofile` does
		}
		if err := p.write(kind); err != nil {
			return nil, fmt.Errorf("%s profiler: %w", kind, err)
		}
	}
	return p.files, nil
}

func (p *profiler) write(kind string) error {
	f, err := os.Create(p.path(kind))
	if err != nil {
		return err
	}
	if err := pprof.Lookup(kind).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	p.files[kind] = f.Name()
	return f.Close()
}

// path is the profile's file (protocol.ProfileFile: a name per run key,
// fork and kind).
func (p *profiler) path(kind string) string {
	return protocol.ProfileFile(p.dir, p.key, p.fork, kind)
}
