package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/internal/specscale"
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
		data, reg = specscale.Entries(10000, 1000), specscale.Benchmarks(1000)
	case scaleWide:
		data, reg = specscale.Entries(10000, 10000), specscale.Benchmarks(10000)
	case scaleRuns:
		data, reg = specscale.Product(100, 100, 10)
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
