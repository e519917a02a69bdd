package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/forkimage"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// Item 4's bar for one minimal fork, and item 5's for a batch's wall time
// over its configured iteration time.
const (
	forkTarget       = 10 * time.Millisecond
	efficiencyTarget = 1.04
)

// forkClock records, in the parent, when each fork started (wall clock,
// so that it compares with the fork's own timestamps).
type forkClock struct{ start map[int]time.Time }

func (c *forkClock) RunStart(*plan.Run) {}
func (c *forkClock) ForkStart(_ *plan.Run, fork, _ int, _ bool, _, _ int) {
	c.start[fork] = time.Now()
}
func (c *forkClock) Iteration(*plan.Run, int, *protocol.Iteration) {}
func (c *forkClock) ForkEnd(*plan.Run, *protocol.ForkResult)       {}
func (c *forkClock) RunEnd(*plan.Run, []protocol.ForkResult)       {}

// forkCost is item 4: the wall time of a minimal fork, split into its
// parts by the fork's own timestamps, with calibration, baseline and a
// bare process of this binary (a copy made as the forks' is) timed on
// their own in fresh processes; beside them a Go hello world and the
// same forks of this program linked with alignFlags (forkRefs).
func (d *driver) forkCost() error {
	refs, err := buildForkRefs(d.h.ctx)
	if err != nil {
		return err
	}
	defer refs.remove()
	r := d.h.run("fork.Minimal:avgt")
	// The forks of both builds in blocks taking turns, so that a drift
	// of the machine weighs on both alike.
	blocks := 3
	if refs.aligned == "" {
		blocks = 1
	}
	var forks, alignedForks []forkSplit
	suite := func(int) error {
		fs, err := d.forkSplits(d.h.exe, r, blocks)
		forks = append(forks, fs...)
		return err
	}
	if refs.aligned == "" {
		err = suite(0)
	} else {
		err = alternate(blocks, suite, func(int) error {
			fs, err := d.forkSplits(refs.aligned, r, blocks)
			alignedForks = append(alignedForks, fs...)
			return err
		})
	}
	if err != nil {
		return err
	}
	var bare, hello, calibrate, baseline []time.Duration
	var parts []partsResult
	// The bare processes run a copy of this binary made as the forks'
	// is (internal/forkimage), so that the two starts compare; the hello
	// world's too.
	img := forkimage.New(d.h.exe)
	defer img.Remove()
	steps := []func(int) error{func(int) error {
		var p partsResult
		err := d.h.child(childParts, &p, envStartNs+"="+strconv.FormatInt(time.Now().UnixNano(), 10))
		calibrate = append(calibrate, time.Duration(p.CalibrateNs))
		baseline = append(baseline, time.Duration(p.BaselineTimeNs()))
		parts = append(parts, p)
		return err
	}, func(int) error {
		t, err := d.startToExit(img.Path, envChild+"="+childNoop)
		bare = append(bare, t)
		return err
	}}
	if refs.hello != "" {
		helloImg := forkimage.New(refs.hello)
		defer helloImg.Remove()
		steps = append(steps, func(int) error {
			t, err := d.startToExit(helloImg.Path)
			hello = append(hello, t)
			return err
		})
	}
	if err := alternate(len(forks), steps...); err != nil {
		return err
	}
	med := func(ds []time.Duration) time.Duration { return time.Duration(median(durations(ds))) }
	s := summarize(forks)
	cal, base := med(calibrate), med(baseline)
	rest := s.wall - cal - base
	n := len(forks)
	d.res.add(row{id: "4", measure: fmt.Sprintf("fork cost: minimal fork, wall time (median of %d)", n),
		benchspec: s.wallText(), figure: ms(s.wall), target: "≤ " + ms(forkTarget), verdict: verdict(s.wall <= forkTarget)})
	d.res.add(row{id: "4", measure: "… exec to main (process start, runtime and package init)",
		benchspec: ms(s.toMain), reference: "bare process of this binary, start to exit: " + ms(med(bare))})
	d.res.add(row{id: "4", measure: "… main to benchmark body (assignment, calibration, baseline, handshake)",
		benchspec: ms(s.toBody), reference: fmt.Sprintf("alone in a fresh process: clock calibration %s + empty-loop baseline %s", ms(cal), ms(base))})
	d.res.add(row{id: "4", measure: "… the 1 ms iteration (and its report)", benchspec: ms(s.loop)})
	d.res.add(row{id: "4", measure: "… loop end to exit, reaped by the parent", benchspec: ms(s.exit)})
	d.res.add(row{id: "4", measure: "fork cost without calibration and baseline", benchspec: ms(rest), figure: ms(rest)})
	helloText := "not measured: " + errText(refs.helloErr)
	if refs.hello != "" {
		helloText = ms(med(hello))
	}
	d.res.add(row{id: "4", measure: "… a Go hello world (`os.Exit(0)`, built by go build, copied as the forks' binary is), start to exit: what any Go process costs here",
		benchspec: helloText})
	alignedMeasure := fmt.Sprintf("… the same forks of this program linked with `%s` (segments on 2 MiB, which the kernel can map with huge pages)", alignFlags)
	alignedText := "not measured: " + errText(refs.alignedErr)
	var a forkSummary
	if refs.aligned != "" {
		a = summarize(alignedForks)
		alignedMeasure += fmt.Sprintf(", in blocks of %d taking turns with the forks above (median of %d)", n/blocks, len(alignedForks))
		alignedText = fmt.Sprintf("%s; exec to main %s, main to body %s, iteration %s, exit and reaping %s", a.wallText(), ms(a.toMain), ms(a.toBody), ms(a.loop), ms(a.exit))
	}
	d.res.add(row{id: "4", measure: alignedMeasure, benchspec: alignedText})
	d.calibrationError(parts)
	if s.wall > forkTarget {
		d.res.note("Fork cost: a minimal fork takes %s, over the %s target: exec to main %s, main to the body %s (of which clock calibration %s and the empty-loop baseline %s), the iteration %s, exit and reaping %s.%s",
			ms(s.wall), ms(forkTarget), ms(s.toMain), ms(s.toBody), ms(cal), ms(base), ms(s.loop), ms(s.exit), refsNote(refs, med(hello), med(bare), a))
	}
	return nil
}

// refsNote is what the fork-cost note says of the references, if they
// were measured.
func refsNote(refs *forkRefs, hello, bare time.Duration, aligned forkSummary) string {
	var b strings.Builder
	if refs.hello != "" {
		fmt.Fprintf(&b, " A Go hello world starts and exits in %s here, a bare process of this binary in %s.", ms(hello), ms(bare))
	}
	if refs.aligned != "" {
		fmt.Fprintf(&b, " Linked with `%s`, the same minimal fork takes %s (exec to main %s).", alignFlags, ms(aligned.wall), ms(aligned.toMain))
	}
	return b.String()
}

func errText(err error) string {
	if err == nil {
		return "no build"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// startToExit is the wall time of a process of exe with env added, from
// its start to its exit, reaped.
func (d *driver) startToExit(exe string, env ...string) (time.Duration, error) {
	t := time.Now()
	cmd := exec.CommandContext(d.h.ctx, exe)
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	return time.Since(t), err
}

// forkSplit is one minimal fork's wall time and its parts, split by the
// fork's own timestamps.
type forkSplit struct{ wall, toMain, toBody, loop, exit time.Duration }

// forkSplits runs the forks of r, one nth of them, as a batch of exe's.
func (d *driver) forkSplits(exe string, r plan.Run, n int) ([]forkSplit, error) {
	r.Settings.Forks = max(r.Settings.Forks/n, 1)
	clock := &forkClock{start: map[int]time.Time{}}
	forks, err := d.h.forksOf(exe, r, clock)
	if err != nil {
		return nil, err
	}
	var out []forkSplit
	for _, f := range forks {
		start := clock.start[f.Fork].UnixNano()
		at := func(metric string) int64 { return int64(f.Metrics[metric]) }
		out = append(out, forkSplit{
			wall:   f.Wall,
			toMain: time.Duration(at(metricMainUnixNs) - start),
			toBody: time.Duration(at(metricBodyUnixNs) - at(metricMainUnixNs)),
			loop:   time.Duration(at(metricLoopEndUnixNs) - at(metricBodyUnixNs)),
			exit:   time.Duration(start + int64(f.Wall) - at(metricLoopEndUnixNs)),
		})
	}
	return out, nil
}

// forkSummary is the medians of forkSplits, with the range of the wall
// times.
type forkSummary struct {
	forkSplit
	fastest, slowest time.Duration
}

func summarize(fs []forkSplit) forkSummary {
	field := func(get func(forkSplit) time.Duration) time.Duration {
		var xs []float64
		for _, f := range fs {
			xs = append(xs, float64(get(f)))
		}
		return time.Duration(median(xs))
	}
	s := forkSummary{forkSplit: forkSplit{
		wall:   field(func(f forkSplit) time.Duration { return f.wall }),
		toMain: field(func(f forkSplit) time.Duration { return f.toMain }),
		toBody: field(func(f forkSplit) time.Duration { return f.toBody }),
		loop:   field(func(f forkSplit) time.Duration { return f.loop }),
		exit:   field(func(f forkSplit) time.Duration { return f.exit }),
	}}
	s.fastest, s.slowest = fs[0].wall, fs[0].wall
	for _, f := range fs {
		s.fastest, s.slowest = min(s.fastest, f.wall), max(s.slowest, f.wall)
	}
	return s
}

func (s forkSummary) wallText() string {
	return fmt.Sprintf("%s (%s – %s)", ms(s.wall), ms(s.fastest), ms(s.slowest))
}

// calibrationError adds item 4's rows on what the fork's short clock
// calibration and baseline cost in accuracy: each against a long one in
// the same process, over the processes of parts. The baseline's error is
// its floor's, the fastest iteration, which is what DEAD_CODE uses.
func (d *driver) calibrationError(parts []partsResult) {
	var ovh, res, loop, inv, floor, refFloor []float64
	for _, p := range parts {
		ovh = append(ovh, p.OverheadNs/p.RefOverheadNs-1)
		res = append(res, p.ResolutionNs/p.RefResolutionNs-1)
		loop = append(loop, p.floorLoopError())
		inv = append(inv, p.floorInvocationsError())
		floor = append(floor, p.floorError())
		refFloor = append(refFloor, min(p.RefFloorLoopNs, p.RefFloorInvocationsNs))
	}
	spread := func(xs []float64) string {
		abs := make([]float64, len(xs))
		for i, x := range xs {
			abs[i] = math.Abs(x)
		}
		return fmt.Sprintf("median %s, worst %s", pct(median(xs)), pct(xs[slices.Index(abs, slices.Max(abs))]))
	}
	n := len(parts)
	d.res.add(row{id: "4", measure: fmt.Sprintf("… error of the fork's clock calibration (%d rounds of %d reads) against %d rounds of %d reads, same process, %d processes", worker.CalibrationRounds, worker.CalibrationReads, refRounds, refReads, n),
		benchspec: "overhead " + spread(ovh), reference: "resolution " + spread(res)})
	d.res.add(row{id: "4", measure: fmt.Sprintf("… error of the fork's empty-loop floor, DEAD_CODE's yardstick (the fastest iteration of either loop form; %s of each) against the fastest of %s of each form, same process, %d processes", baselineText(parts[0].Setting), baselineText(refBaseline.String()), n),
		benchspec: floorSpread(floor), reference: fmt.Sprintf("reference floor %s – %s across processes; a floor above the reference makes DEAD_CODE fire sooner (false alarms), one below it later (misses)",
			ns(slices.Min(refFloor)), ns(slices.Max(refFloor)))})
	d.res.add(row{id: "4", measure: "… of which each form's floor against its own reference",
		benchspec: "`for b.Loop()` " + floorSpread(loop), reference: "`for range b.Invocations()` " + floorSpread(inv)})
}

// floorSpread is a list of floor errors as their median and range, and
// how many are over floorTolerance high (DEAD_CODE's false-alarm side).
func floorSpread(xs []float64) string {
	high := len(slices.DeleteFunc(slices.Clone(xs), func(x float64) bool { return x <= floorTolerance }))
	return fmt.Sprintf("median %s, range %s … %s, %d of %d over %s", pct(median(xs)), pct(slices.Min(xs)), pct(slices.Max(xs)), high, len(xs), pct(floorTolerance))
}

// baselineText is a setting's String as prose: "5x100µs+1w" is
// "5 × 100µs, after 1 warmup iteration".
func baselineText(setting string) string {
	s, err := parseBaselineSetting(setting)
	switch {
	case err != nil:
		return setting
	case s.Warmup == 0:
		return fmt.Sprintf("%d × %s", s.Iterations, s.Time)
	}
	return fmt.Sprintf("%d × %s, after %d warmup iteration", s.Iterations, s.Time, s.Warmup)
}

// efficiency is item 5: efficiency.yaml through the suite's own `run`
// command in a child process, its wall time over its configured
// iteration time.
func (d *driver) efficiency() error {
	s, err := spec.Parse("tools/selfbench/efficiency.yaml", efficiencyYAML)
	if err != nil {
		return err
	}
	p, err := plan.Build([]*spec.Spec{s}, registry())
	if err != nil {
		return err
	}
	var configured time.Duration
	forks := 0
	for _, r := range p.Runs {
		st := r.Settings
		n := st.Forks + st.WarmupForks
		forks += n
		configured += time.Duration(n) * (time.Duration(st.Warmup.Iterations)*st.Warmup.Time + time.Duration(st.Measurement.Iterations)*st.Measurement.Time)
	}
	dir, err := os.MkdirTemp("", "selfbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path, out := filepath.Join(dir, "efficiency.yaml"), filepath.Join(dir, "efficiency.json")
	if err := os.WriteFile(path, efficiencyYAML, 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(d.h.ctx, d.h.exe, "run", "--quiet", "--format", "json", "--out", out, path)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %w", cmd.Args, err)
	}
	wall := time.Since(start)
	f, err := os.Open(out)
	if err != nil {
		return err
	}
	defer f.Close()
	rep, err := report.Read(f)
	if err != nil {
		return err
	}
	var inForks time.Duration
	for _, r := range rep.Runs {
		for _, fk := range r.Forks {
			inForks += time.Duration(fk.WallNs)
		}
	}
	q := float64(wall) / float64(configured)
	perFork, outside := (inForks-configured)/time.Duration(forks), wall-inForks
	d.res.add(row{id: "5", measure: fmt.Sprintf("wall-time efficiency: %d runs × %d forks × (2 warmup + 3 measurement) × 100 ms, through `run`", len(p.Runs), forks/len(p.Runs)),
		benchspec: fmt.Sprintf("%.2f s wall", wall.Seconds()), reference: fmt.Sprintf("%.2f s configured", configured.Seconds()),
		figure: "ratio " + ratio(q), target: fmt.Sprintf("≤ %.2f", efficiencyTarget), verdict: verdict(q <= efficiencyTarget)})
	d.res.add(row{id: "5", measure: "… per fork beyond its iterations; the parent outside forks (start-up, plan, report, journal)",
		benchspec: fmt.Sprintf("%s per fork; %s", ms(perFork), ms(outside))})
	if q > efficiencyTarget {
		d.res.note("Wall-time efficiency: %.2f s for %.2f s of iterations (ratio %s, over %.2f): each fork took %s beyond its configured iterations (process start, calibration, iterations overshooting their time, exit), %s in all; the parent spent %s outside forks.",
			wall.Seconds(), configured.Seconds(), ratio(q), efficiencyTarget, ms(perFork), ms(perFork*time.Duration(forks)), ms(outside))
	}
	return nil
}
