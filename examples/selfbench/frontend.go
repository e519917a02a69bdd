package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// The front-end scale cases (envScale).
const (
	scaleIdle    = "idle"    // nothing: the memory floor of a process of this binary
	scaleEntries = "entries" // a spec of 10 000 entries against 1 000 benchmarks
	scaleWide    = "wide"    // the same spec against 10 000 benchmarks
	scaleRuns    = "runs"    // one entry whose params expand to 100 000 runs
)

// frontendResult is what a front-end child measured of itself.
type frontendResult struct {
	SpecBytes int   `json:"spec_bytes"`
	Runs      int   `json:"runs"`
	ParseNs   int64 `json:"parse_ns"` // spec.Parse: YAML, schema, semantics
	PlanNs    int64 `json:"plan_ns"`  // plan.Build
	PeakKiB   int64 `json:"peak_kib"` // peak resident set of the whole process
}

func measureFrontend(scale string) (*frontendResult, error) {
	var data []byte
	var reg []plan.Benchmark
	switch scale {
	case scaleIdle:
		return &frontendResult{PeakKiB: peakRSS()}, nil
	case scaleEntries:
		data, reg = entriesSpec(10000, 1000), benchmarks(1000)
	case scaleWide:
		data, reg = entriesSpec(10000, 10000), benchmarks(10000)
	case scaleRuns:
		data, reg = productSpec(100, 100, 10)
	default:
		return nil, fmt.Errorf("unknown scale %q", scale)
	}
	runtime.GC()
	t0 := time.Now()
	s, err := spec.Parse("scale.yaml", data)
	if err != nil {
		return nil, firstLines(err, 3)
	}
	t1 := time.Now()
	p, err := plan.Build([]*spec.Spec{s}, reg)
	if err != nil {
		return nil, firstLines(err, 3)
	}
	t2 := time.Now()
	runtime.KeepAlive(p)
	return &frontendResult{SpecBytes: len(data), Runs: len(p.Runs), ParseNs: int64(t1.Sub(t0)), PlanNs: int64(t2.Sub(t1)), PeakKiB: peakRSS()}, nil
}

// benchmarks is a registry of n benchmarks in groups of 100, each with an
// integer parameter of two values.
func benchmarks(n int) []plan.Benchmark {
	out := make([]plan.Benchmark, n)
	for i := range out {
		out[i] = plan.Benchmark{
			Name:      benchName(i),
			Params:    map[string][]string{"size": {"10", "100"}},
			IntParams: map[string]bool{"size": true},
		}
	}
	return out
}

func benchName(i int) string { return fmt.Sprintf("pkg%03d.Bench%04d", i/100, i) }

// entriesSpec is a spec of n entries, each selecting one benchmark of
// benchmarks(names) by an anchored name and overriding some settings:
// modes always, measurement every other entry, params every fourth, env
// every eighth. That is about 7 YAML values per entry, well inside the
// parser's limit of 100 000 values per file.
func entriesSpec(n, names int) []byte {
	var b bytes.Buffer
	b.WriteString("version: 1\nname: scale\ndefaults:\n  forks: 1\n  warmup: {iterations: 1, time: 10ms}\n  measurement: {iterations: 2, time: 10ms}\nbenchmarks:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - include: '^%s$'\n", strings.ReplaceAll(benchName(i%names), ".", `\.`))
		if i%2 == 0 {
			b.WriteString("    modes: [avgt]\n    measurement: {iterations: 3}\n")
		} else {
			b.WriteString("    modes: [avgt, thrpt]\n")
		}
		if i%4 == 1 {
			b.WriteString("    params: {size: [10, 1000]}\n")
		}
		if i%8 == 3 {
			b.WriteString("    env: {GOGC: \"200\"}\n")
		}
	}
	return b.Bytes()
}

// productSpec is one entry whose three parameters expand to a×b×c runs.
func productSpec(a, b, c int) ([]byte, []plan.Benchmark) {
	list := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = strconv.Itoa(i)
		}
		return "[" + strings.Join(vs, ", ") + "]"
	}
	data := fmt.Sprintf("version: 1\nname: grid\nbenchmarks:\n  - include: '^grid$'\n    params:\n      a: %s\n      b: %s\n      c: %s\n", list(a), list(b), list(c))
	reg := []plan.Benchmark{{
		Name:      "grid",
		Params:    map[string][]string{"a": {"0"}, "b": {"0"}, "c": {"0"}},
		IntParams: map[string]bool{"a": true, "b": true, "c": true},
	}}
	return []byte(data), reg
}

// peakRSS is the process's peak resident set in KiB: VmHWM on Linux,
// getrusage elsewhere.
func peakRSS() int64 {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err == nil {
					return kib
				}
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024 // bytes there
	}
	return int64(ru.Maxrss)
}

// firstLines shortens an error list to its first n lines.
func firstLines(err error, n int) error {
	lines := strings.Split(err.Error(), "\n")
	if len(lines) <= n {
		return err
	}
	return fmt.Errorf("%s\n… and %d more", strings.Join(lines[:n], "\n"), len(lines)-n)
}

// Item 7's bars.
const (
	frontendTime = time.Second
	frontendPeak = 256 << 10 // KiB
)

// frontEnd is item 7: spec.Parse and plan.Build at scale, each case in a
// child process of its own so that its peak memory is its own.
func (d *driver) frontEnd() error {
	var idle frontendResult
	if err := d.h.child(childFrontend, &idle, envScale+"="+scaleIdle); err != nil {
		return err
	}
	for _, c := range []struct {
		scale, what    string
		entries, names int
	}{
		{scaleEntries, "parse + validate + plan: spec of 10 000 entries, 1 000 registered benchmarks", 10000, 1000},
		{scaleWide, "… the same spec against 10 000 registered benchmarks", 10000, 10000},
		{scaleRuns, "parse + validate + plan: 100 000 runs (params 100 × 100 × 10)", 1, 1},
	} {
		var res frontendResult
		if err := d.h.child(childFrontend, &res, envScale+"="+c.scale); err != nil {
			return err
		}
		parse, build := time.Duration(res.ParseNs), time.Duration(res.PlanNs)
		t := parse + build
		d.res.add(row{id: "7", measure: c.what,
			benchspec: fmt.Sprintf("parse %s + plan %s, peak RSS %s (%d KiB of YAML, %d runs)", ms(parse), ms(build), kib(res.PeakKiB), res.SpecBytes>>10, res.Runs),
			reference: "idle process: " + kib(idle.PeakKiB),
			figure:    fmt.Sprintf("%s; %s", ms(t), kib(res.PeakKiB)),
			target:    "≤ 1 s; ≤ 256 MiB",
			verdict:   verdict(t <= frontendTime && res.PeakKiB <= frontendPeak)})
		if t > frontendTime && c.entries > 1 {
			pairs := float64(c.entries) * float64(c.names)
			d.res.note("Front end, %d entries × %d benchmarks: plan.Build matches every entry's include against every registered name, %.0e regexp matches, ≈ %s each (%s of the %s); spec.Parse takes the other %s.",
				c.entries, c.names, pairs, ns(float64(build)/pairs), ms(build), ms(t), ms(parse))
		}
	}
	return nil
}
