package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// envLoopSpread, set to a number of processes (tools/scripts/loop-spread.sh
// sets 10), makes the binary measure only the loop's spread across
// processes: the empty loop and sqrt.Sunk, each in that many fresh
// benchspec forks of its `for b.Loop()` and its `for range
// b.Invocations()` form and as many fresh testing.B processes of its `for
// b.Loop()` and its `for range b.N` form, alternating, and print every
// process's mean side by side, with benchspec's per-fork baseline. A
// loop whose cost depends on the process shows as a wide max/min on its
// rows while `for range b.N`, whose counter stays in a register, stays
// narrow.
const envLoopSpread = "SELFBENCH_LOOP_SPREAD"

// spreadWorkloads are the bodies whose spread is measured, with the
// largest max/min over processes that benchspec's loop may show (the
// issue's targets: the empty loop 10 %, sqrt.Sunk 15 %).
var spreadWorkloads = []struct {
	name   string
	maxMin float64
}{{"empty", 1.10}, {"sqrt.Sunk", 1.15}}

// invocationsSuffix names a workload's `for range b.Invocations()` form.
const invocationsSuffix = ".invocations"

// invocationsRun is r for the body's `for range b.Invocations()` form.
func invocationsRun(r plan.Run) plan.Run {
	r.Benchmark += invocationsSuffix
	r.Key = r.Benchmark + ":" + r.Mode.String()
	return r
}

// spreadRow is one way of running a workload, with the mean of every
// process (ns/op) in the order they ran.
type spreadRow struct {
	workload, loop string
	means          []float64
}

func loopSpreadMain(arg string) int {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "loop-spread: "+format+"\n", args...) }
	n, err := strconv.Atoi(arg)
	if err != nil || n < 2 {
		logf("%s=%q: want a number of processes, at least 2 (e.g. 10)", envLoopSpread, arg)
		return 2
	}
	h, err := newHarness(context.Background(), logf)
	if err != nil {
		logf("%v", err)
		return 2
	}
	start, before := time.Now(), snapshotCPU()
	var rows []spreadRow
	for _, w := range spreadWorkloads {
		logf("%s: %d rounds …", w.name, n)
		got, err := h.loopSpread(w.name, n)
		if err != nil {
			logf("%s: %v", w.name, err)
			return 1
		}
		rows = append(rows, got...)
	}
	used, stolen := others(before, snapshotCPU(), h.env.NumCPU)
	quiet := fmt.Sprintf("other processes used %.0f %% of the CPUs meanwhile, steal %.0f %%", 100*used, 100*stolen)
	if used < 0 {
		quiet = "the load of other processes is unknown (no /proc/stat)"
	}
	fmt.Printf("Loop spread over %d fresh processes each, %s: %s, %d cores, %s. The run took %s; %s.\n\n",
		n, start.Format("2006-01-02 15:04 MST"), h.env.CPU, h.env.NumCPU, h.env.GoVersion, time.Since(start).Round(time.Second), quiet)
	writeSpread(os.Stdout, rows)
	return 0
}

// loopSpread runs the workload's n benchspec forks of each form (avgt,
// 20 warmup and 150 measurement iterations of 2 ms) and n testing.B
// processes of each form with the same measurement time, one of each per
// round, the first rotating.
func (h *harness) loopSpread(name string, n int) ([]spreadRow, error) {
	r := h.run(name + ":avgt")
	// Many short iterations, so that each fork's 10th percentile is its
	// loop's cost with preemption left out: 300 ms of measurement, as
	// testing.B gets.
	r.Settings.Warmup = spec.Iterations{Iterations: 20, Time: 2 * time.Millisecond, BatchSize: 1}
	r.Settings.Measurement = spec.Iterations{Iterations: 150, Time: 2 * time.Millisecond, BatchSize: 1}
	ri := invocationsRun(r)
	var forks, iforks []protocol.ForkResult
	var tb, tbN []float64
	err := alternate(n,
		h.forkInto(r, &forks),
		h.forkInto(ri, &iforks),
		h.testingInto(name, false, measurementTime(r), &tb),
		h.testingInto(name, true, measurementTime(r), &tbN))
	if err != nil {
		return nil, err
	}
	iscores := make([]float64, len(iforks))
	for i, f := range iforks {
		iscores[i] = h.forkScore(ri, f)
	}
	scores := make([]float64, len(forks))
	var base []float64
	for i, f := range forks {
		scores[i] = h.forkScore(r, f)
		if len(f.Timer.BaselineNs) > 0 {
			base = append(base, median(f.Timer.BaselineNs))
		}
	}
	rows := []spreadRow{
		{name, "benchspec `for b.Loop()`: fork means", scores},
		{name, "benchspec `for range b.Invocations()`: fork means", iscores},
		{name, "testing.B `for b.Loop()`", tb},
		{name, "testing.B `for range b.N`", tbN},
	}
	if len(base) > 0 {
		rows = append(rows, spreadRow{name, "benchspec's per-fork baseline (the empty loop before the benchmark, median)", base})
	}
	// A fork's 10th-percentile iteration is its loop's cost with the
	// preempted iterations left out: on a busy machine, a loop slow for a
	// whole fork still shows here when the means are all disturbed.
	rows = append(rows,
		spreadRow{name, "benchspec `for b.Loop()`: 10th-percentile iteration per fork", p10(h.join(r, forks))},
		spreadRow{name, "benchspec `for range b.Invocations()`: 10th-percentile iteration per fork", p10(h.join(ri, iforks))})
	h.log("  %s: benchspec %.4g, Invocations %.4g, testing.B %.4g, b.N loop %.4g ns/op", name, scores, iscores, tb, tbN)
	return rows, nil
}

// writeSpread prints one Markdown row per way of running a workload: the
// processes' min, median and max, max/min, the max against the median of
// testing.B's `for range b.N` processes of the same workload, and every
// process's mean. A verdict follows for benchspec's loop on each workload.
func writeSpread(w io.Writer, rows []spreadRow) {
	ref := map[string]float64{}
	for _, r := range rows {
		if strings.Contains(r.loop, "range b.N") {
			ref[r.workload] = median(r.means)
		}
	}
	fmt.Fprintln(w, "| workload | loop | min | median | max | max/min | max / b.N median | every process (ns/op, in order) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		each := make([]string, len(r.means))
		for i, v := range r.means {
			each[i] = sig(v)
		}
		lo, hi := slices.Min(r.means), slices.Max(r.means)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.workload, r.loop,
			sig(lo), sig(median(r.means)), sig(hi), ratio(hi/lo), ratio(hi/ref[r.workload]), strings.Join(each, " "))
	}
	fmt.Fprintln(w)
	for _, sw := range spreadWorkloads {
		for _, r := range rows {
			if r.workload != sw.name || !strings.HasSuffix(r.loop, "fork means") {
				continue
			}
			lo, hi := slices.Min(r.means), slices.Max(r.means)
			fmt.Fprintf(w, "- %s, %s: max/min %s (target ≤ %.2f): %s; max / b.N median %s (target ≤ 1.10): %s.\n",
				r.workload, r.loop, ratio(hi/lo), sw.maxMin, verdict(hi/lo <= sw.maxMin), ratio(hi/ref[r.workload]), verdict(hi/ref[r.workload] <= 1.10))
		}
	}
}

// p10 is the 10th-percentile measurement iteration score of each fork
// of a joined run.
func p10(run report.Run) []float64 {
	out := make([]float64, len(run.Primary.RawData))
	for i, fork := range run.Primary.RawData {
		v := make([]float64, len(fork))
		for j, x := range fork {
			v[j] = float64(x)
		}
		slices.Sort(v)
		out[i] = math.NaN()
		if len(v) > 0 {
			out[i] = v[len(v)/10]
		}
	}
	return out
}
