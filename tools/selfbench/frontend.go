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

	"github.com/benchspec/benchspec/internal/gcpause"
	"github.com/benchspec/benchspec/internal/specscale"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// A front-end scale case (envScale) is "idle" (nothing: the memory floor
// of a process of this binary), "entries=N" (a spec of N entries against
// 1 000 benchmarks), "wide=N" (the same against 10 000 benchmarks) or
// "runs=N" (one entry whose params expand to N runs, N a multiple of 100).
const scaleIdle = "idle"

// frontendResult is what a front-end child measured of itself.
type frontendResult struct {
	SpecBytes int   `json:"spec_bytes"`
	Runs      int   `json:"runs"`
	ParseNs   int64 `json:"parse_ns"` // spec.Parse: YAML, schema, semantics
	PlanNs    int64 `json:"plan_ns"`  // plan.Build
	PeakKiB   int64 `json:"peak_kib"` // peak resident set of the whole process
	// CPUNs is the CPU time of parse and plan, all threads (the garbage
	// collector's too): beside the wall time, it tells a slow front end
	// from one that waited for a busy machine.
	CPUNs int64 `json:"cpu_ns"`
}

func measureFrontend(scale string) (*frontendResult, error) {
	if scale == scaleIdle {
		return &frontendResult{PeakKiB: peakRSS()}, nil
	}
	kind, num, _ := strings.Cut(scale, "=")
	n, err := strconv.Atoi(num)
	if err != nil || n < 100 {
		return nil, fmt.Errorf("bad scale %q", scale)
	}
	var data []byte
	var reg []plan.Benchmark
	switch kind {
	case "entries":
		data, reg = specscale.Entries(n, 1000), specscale.Benchmarks(1000)
	case "wide":
		data, reg = specscale.Entries(n, 10000), specscale.Benchmarks(10000)
	case "runs":
		data, reg = specscale.Product(n/100, 10, 10)
	default:
		return nil, fmt.Errorf("unknown scale %q", scale)
	}
	runtime.GC()
	cpu0 := cpuTime()
	t0 := time.Now()
	// As the suite's load does: the collector off while the spec is
	// parsed (internal/gcpause), on for the plan.
	restoreGC := gcpause.Off(frontEndHeadroom)
	s, err := spec.Parse("scale.yaml", data)
	restoreGC()
	if err != nil {
		return nil, firstLines(err, 3)
	}
	t1 := time.Now()
	p, err := plan.Build([]*spec.Spec{s}, reg)
	if err != nil {
		return nil, firstLines(err, 3)
	}
	t2 := time.Now()
	cpu := cpuTime() - cpu0
	runtime.KeepAlive(p)
	return &frontendResult{SpecBytes: len(data), Runs: len(p.Runs), ParseNs: int64(t1.Sub(t0)), PlanNs: int64(t2.Sub(t1)), PeakKiB: peakRSS(), CPUNs: int64(cpu)}, nil
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return tv(ru.Utime) + tv(ru.Stime)
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

// Item 7's bars: the issue's, for 10 000 entries and for 100 000 runs.
const (
	// frontEndHeadroom is internal/cli's: what the front end may add to
	// the process's memory with the garbage collector off.
	frontEndHeadroom = 128 << 20
	frontendTime     = 300 * time.Millisecond
	frontendPeak     = 256 << 10 // KiB
	// linearSlack bounds the cost per entry (or run) at the largest scale
	// over that at the smallest: 1 for exactly linear cost; fixed costs
	// (compiling the schema) weigh on the smallest, which favours it.
	linearSlack = 1.5
)

// frontEnd is item 7: spec.Parse and plan.Build at scale, each case in a
// child process of its own so that its peak memory is its own: 10³ and
// 10⁴ entries, and 10³, 10⁴ and 10⁵ runs, so that a reader sees the cost
// grow linearly.
func (d *driver) frontEnd() error {
	var idle frontendResult
	if err := d.h.child(childFrontend, &idle, envScale+"="+scaleIdle); err != nil {
		return err
	}
	measure := func(scale string) (frontendResult, error) {
		var res frontendResult
		err := d.h.child(childFrontend, &res, envScale+"="+scale)
		return res, err
	}
	for _, c := range []struct {
		kind, unit, units, what string
		sizes                   []int
		target                  bool
	}{
		{"entries", "entry", "entries", "parse + validate + plan: spec of %s entries, 1 000 registered benchmarks", []int{1000, 10000}, true},
		{"runs", "run", "runs", "parse + validate + plan: %s runs (one entry, params %s)", []int{1000, 10000, 100000}, true},
		{"wide", "entry", "entries", "… spec of %s entries against 10 000 registered benchmarks", []int{10000}, false},
	} {
		var all []frontendResult
		for _, n := range c.sizes {
			res, err := measure(fmt.Sprintf("%s=%d", c.kind, n))
			if err != nil {
				return err
			}
			all = append(all, res)
		}
		big, n := all[len(all)-1], c.sizes[len(c.sizes)-1]
		parse, build := time.Duration(big.ParseNs), time.Duration(big.PlanNs)
		t := parse + build
		what := fmt.Sprintf(c.what, thousands(n))
		if c.kind == "runs" {
			what = fmt.Sprintf(c.what, thousands(n), fmt.Sprintf("%d × 10 × 10", n/100))
		}
		r := row{id: "7", measure: what,
			benchspec: fmt.Sprintf("parse %s + plan %s (CPU %s), peak RSS %s (%d KiB of YAML, %d runs)", ms(parse), ms(build), ms(time.Duration(big.CPUNs)), kib(big.PeakKiB), big.SpecBytes>>10, big.Runs),
			reference: "idle process: " + kib(idle.PeakKiB),
			figure:    fmt.Sprintf("%s; %s", ms(t), kib(big.PeakKiB))}
		ok := t <= frontendTime && big.PeakKiB <= frontendPeak
		if c.target {
			r.target, r.verdict = fmt.Sprintf("≤ %s; ≤ 256 MiB", ms(frontendTime)), verdict(ok)
		}
		d.res.add(r)
		if c.target && !ok {
			d.res.note("Front end, %s: %s (spec.Parse %s: YAML, schema, semantics; plan.Build %s) and %s peak, against %s and 256 MiB.",
				what, ms(t), ms(parse), ms(build), kib(big.PeakKiB), ms(frontendTime))
		}
		if len(all) < 2 {
			continue
		}
		var times, per []string
		for i, res := range all {
			tn := time.Duration(res.ParseNs + res.PlanNs)
			times = append(times, fmt.Sprintf("%s: %s", thousands(c.sizes[i]), ms(tn)))
			per = append(per, ns(float64(tn)/float64(c.sizes[i])))
		}
		first := float64(all[0].ParseNs+all[0].PlanNs) / float64(c.sizes[0])
		last := float64(big.ParseNs+big.PlanNs) / float64(n)
		d.res.add(row{id: "7", measure: fmt.Sprintf("… linear: the same at %s %s", strings.Join(sizeNames(c.sizes), ", "), c.units),
			benchspec: strings.Join(times, "; "), reference: fmt.Sprintf("per %s: %s", c.unit, strings.Join(per, ", ")),
			figure: fmt.Sprintf("per-%s cost at %s over %s: %s", c.unit, thousands(n), thousands(c.sizes[0]), ratio(last/first)),
			target: fmt.Sprintf("≤ %.1f (linear)", linearSlack), verdict: verdict(last/first <= linearSlack)})
	}
	return nil
}

// thousands writes n with thin spaces between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}

// sizeNames writes powers of ten as 10³, 10⁴, …
func sizeNames(sizes []int) []string {
	sup := []string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}
	var out []string
	for _, n := range sizes {
		e := 0
		for m := n; m >= 10 && m%10 == 0; m /= 10 {
			e++
		}
		out = append(out, "10"+sup[e])
	}
	return out
}
