package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/worker"
)

// envBaselineSweep, set to a number of processes per setting
// (tools/scripts/baseline-sweep.sh), makes the binary measure only how the
// fork's empty-loop floor depends on the baseline's setting: for each
// setting of envBaselineSettings (default sweepSettings), that many fresh
// parts children (taking turns across settings), each measuring the
// fork's calibration with that baseline and then the reference floors in
// the same process, and print per setting the baseline's time and the
// floor's error against the reference.
const (
	envBaselineSweep    = "SELFBENCH_BASELINE_SWEEP"
	envBaselineSettings = "SELFBENCH_BASELINE_SETTINGS" // comma-separated, as parseBaselineSetting reads them
)

var sweepSettings = []string{
	"5x100us+1w", "5x100us+0w", "3x100us+1w", "3x100us+0w",
	"4x50us+1w", "4x50us+0w", "3x50us+0w",
	"6x25us+1w", "6x25us+0w", "4x25us+0w", "3x25us+0w",
}

// floorTolerance is how far from the reference a floor may be and still
// count as on it, in the sweep's counts of high and low floors.
const floorTolerance = 0.03

func baselineSweepMain(arg string) int {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "baseline-sweep: "+format+"\n", args...) }
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		logf("%s=%q: want a number of processes per setting, at least 1 (e.g. 30)", envBaselineSweep, arg)
		return 2
	}
	names := sweepSettings
	if v := strings.TrimSpace(os.Getenv(envBaselineSettings)); v != "" {
		names = strings.Split(v, ",")
	}
	var settings []worker.BaselineSetting
	for _, name := range names {
		s, err := parseBaselineSetting(name)
		if err != nil {
			logf("%s: %v", envBaselineSettings, err)
			return 2
		}
		settings = append(settings, s)
	}
	h, err := newHarness(context.Background(), logf)
	if err != nil {
		logf("%v", err)
		return 2
	}
	start, before := time.Now(), snapshotCPU()
	parts := make([][]partsResult, len(settings))
	fns := make([]func(int) error, len(settings))
	for i, s := range settings {
		fns[i] = func(int) error {
			var p partsResult
			if err := h.child(childParts, &p, envStartNs+"="+strconv.FormatInt(time.Now().UnixNano(), 10), envBaseline+"="+s.String()); err != nil {
				return err
			}
			parts[i] = append(parts[i], p)
			return nil
		}
	}
	logf("%d settings × %d processes …", len(settings), n)
	if err := alternate(n, fns...); err != nil {
		logf("%v", err)
		return 1
	}
	used, stolen := others(before, snapshotCPU(), h.env.NumCPU)
	var read []float64
	for _, ps := range parts {
		for _, p := range ps {
			read = append(read, p.RefOverheadNs)
		}
	}
	fmt.Printf("Empty-loop floor by baseline setting: %d processes per setting, %s; other processes used %.0f %% of the CPUs (steal %.0f %%); a clock read %s (median).\n",
		n, time.Since(start).Round(time.Second), 100*used, 100*stolen, ns(median(read)))
	fmt.Printf("Error: the fork's floor (fastest baseline iteration) over the fastest of %s per form in the same process, minus 1. High: processes whose floor came out over %.0f %% above the reference (in brackets: over 10 %%; DEAD_CODE fires sooner: false alarms); low: over %.0f %% below (misses).\n\n",
		baselineText(refBaseline.String()), 100*floorTolerance, 100*floorTolerance)
	fmt.Println("| setting | baseline time (median) | floor error, both forms: median | min | max | high | low | `for b.Loop()` median, max | `for range b.Invocations()` median, max | reference floor |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for i, s := range settings {
		var t, all, loop, inv, ref []float64
		for _, p := range parts[i] {
			t = append(t, float64(p.BaselineTimeNs()))
			all = append(all, p.floorError())
			loop = append(loop, p.floorLoopError())
			inv = append(inv, p.floorInvocationsError())
			ref = append(ref, min(p.RefFloorLoopNs, p.RefFloorInvocationsNs))
		}
		high := len(slices.DeleteFunc(slices.Clone(all), func(x float64) bool { return x <= floorTolerance }))
		high10 := len(slices.DeleteFunc(slices.Clone(all), func(x float64) bool { return x <= 0.10 }))
		low := len(slices.DeleteFunc(slices.Clone(all), func(x float64) bool { return x >= -floorTolerance }))
		fmt.Printf("| %s | %s | %s | %s | %s | %d (%d) | %d | %s, %s | %s, %s | %s – %s |\n",
			s, ns(median(t)), pct(median(all)), pct(slices.Min(all)), pct(slices.Max(all)), high, high10, low,
			pct(median(loop)), pct(slices.Max(loop)), pct(median(inv)), pct(slices.Max(inv)),
			ns(slices.Min(ref)), ns(slices.Max(ref)))
	}
	return 0
}
