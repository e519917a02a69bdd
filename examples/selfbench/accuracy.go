package main

import (
	"fmt"
	"math"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// measurementTime is a fork's configured measurement time: testing.B gets
// the same as its -test.benchtime.
func measurementTime(r plan.Run) time.Duration {
	m := r.Settings.Measurement
	return time.Duration(m.Iterations) * m.Time
}

// versusTesting runs the forks of r one at a time, alternating with a
// testing.B process of the body named test in its `for b.Loop()` form
// and, with classic, in its `for range b.N` form too. It returns the forks
// and the testing.B figures in ns/op (classic: nil without).
func (d *driver) versusTesting(r plan.Run, test string, classic bool) (forks []protocol.ForkResult, tb, tbN []float64, err error) {
	fns := []func(int) error{
		d.h.forkInto(r, &forks),
		d.h.testingInto(test, false, measurementTime(r), &tb),
	}
	if classic {
		fns = append(fns, d.h.testingInto(test, true, measurementTime(r), &tbN))
	}
	if err = alternate(r.Settings.Forks, fns...); err == nil {
		d.h.log("  %s: benchspec %.4g, testing.B %.4g, b.N loop %.4g ns/op", r.Key, d.forkScores(r, forks), tb, tbN)
	}
	return forks, tb, tbN, err
}

func (d *driver) forkScores(r plan.Run, forks []protocol.ForkResult) []float64 {
	out := make([]float64, len(forks))
	for i, f := range forks {
		out[i] = d.h.forkScore(r, f)
	}
	return out
}

// overhead is item 1: the empty loop, benchspec's Loop against
// testing.B.Loop, one fork against one process per round.
func (d *driver) overhead() error {
	r := d.h.run("empty:avgt")
	forks, tb, _, err := d.versusTesting(r, "empty", false)
	if err != nil {
		return err
	}
	d.empty = pair{median(d.forkScores(r, forks)), median(tb)}
	q := d.empty.bench / d.empty.test
	d.res.add(row{
		id:        "1",
		measure:   fmt.Sprintf("per-op overhead: empty loop, avgt (median of %d rounds)", len(tb)),
		benchspec: ns(d.empty.bench) + "/op",
		reference: "testing.B.Loop " + ns(d.empty.test) + "/op",
		figure:    "ratio " + ratio(q),
		target:    "≤ 1.10",
		verdict:   verdict(q <= 1.10),
	})
	return nil
}

// accuracyWorkloads span ~1 ns to ~1 ms per op.
var accuracyWorkloads = []string{"sqrt.Sunk", "map.Lookup", "log.Classic", "sort.Ints1000", "spin.1ms"}

// accuracy is item 2: each workload by benchspec (avgt, 3 forks) and by
// testing.Benchmark in a fresh process each, alternating.
func (d *driver) accuracy() error {
	for _, name := range accuracyWorkloads {
		r := d.h.run(name + ":avgt")
		forks, tb, tbN, err := d.versusTesting(r, name, true)
		if err != nil {
			return err
		}
		run := d.h.join(r, forks)
		p := run.Primary
		bm, tm, tn := median(iterationScores(run)), median(tb), median(tbN)
		if name == "sqrt.Sunk" {
			d.sqrt = pair{bm, tm}
		}
		diff := bm/tm - 1
		lo, hi := float64(p.ScoreConfidence[0]), float64(p.ScoreConfidence[1])
		inCI := tm >= lo && tm <= hi
		ok := math.Abs(diff) <= 0.03
		v := verdict(ok && inCI)
		scores := d.forkScores(r, forks)
		spread := fmt.Sprintf("testing.B's %d processes ranged over [%s, %s], its b.N loop's over [%s, %s], benchspec's %d forks over [%s, %s]",
			len(tb), ns(minOf(tb)), ns(maxOf(tb)), ns(minOf(tbN)), ns(maxOf(tbN)), len(forks), ns(minOf(scores)), ns(maxOf(scores)))
		switch {
		case ok && !inCI:
			v = "met, outside CI (note)"
			d.res.note("%s: testing.B's median %s lies %s outside benchspec's 99.9 %% interval [%s, %s] (half-width %s of the score); %s.",
				name, ns(tm), pct(outside(tm, lo, hi)/float64(p.Score)), ns(lo), ns(hi), pct(float64(p.ScoreError)/float64(p.Score)), spread)
		case !ok && math.Abs(bm/tn-1) < math.Abs(diff)/2:
			d.res.note("%s: benchspec and testing.B's `for b.Loop()` differ by %s, but testing.B's own `for range b.N` loop over the same statements measures %s against its `for b.Loop()` and %s against benchspec: the difference is mostly the code testing.B.Loop's compiler keep-alive generates (it keeps every variable assigned in the loop alive in memory), not the measurement; %s.",
				name, pct(diff), pct(tn/tm-1), pct(bm/tn-1), spread)
		case !ok:
			d.res.note("%s: the medians differ by %s; %s.", name, pct(diff), spread)
		}
		d.res.add(row{
			id:        "2",
			measure:   "accuracy: " + name,
			benchspec: fmt.Sprintf("%s ± %s (median %s)", ns(float64(p.Score)), ns(float64(p.ScoreError)), ns(bm)),
			reference: fmt.Sprintf("testing.B median %s (b.N loop: %s)", ns(tm), ns(tn)),
			figure:    fmt.Sprintf("medians %s (b.N loop: %s); in CI: %s", pct(diff), pct(bm/tn-1), yesNo(inCI)),
			target:    "within 3 %, in CI",
			verdict:   v,
		})
	}
	return nil
}

// sinkCost is item 3: the square root kept alive by benchspec.Sink (item
// 2's sqrt.Sunk), by runtime.KeepAlive, and by testing.B.Loop's compiler
// keep-alive alone.
func (d *driver) sinkCost() error {
	r := d.h.run("sqrt.KeepAlive:avgt")
	forks, tb, _, err := d.versusTesting(r, "sqrt.LoopKeepAlive", false)
	if err != nil {
		return err
	}
	keep, loop := median(iterationScores(d.h.join(r, forks))), median(tb)
	net := func(v, empty float64) string { return fmt.Sprintf("%s/op over the empty loop", signed(v-empty)) }
	d.res.add(row{id: "3", measure: "sink: `benchspec.Sink(math.Sqrt(x))`",
		benchspec: ns(d.sqrt.bench) + "/op", reference: "same body in testing.B: " + ns(d.sqrt.test) + "/op",
		figure: net(d.sqrt.bench, d.empty.bench)})
	d.res.add(row{id: "3", measure: "sink: `runtime.KeepAlive(math.Sqrt(x))`",
		benchspec: ns(keep) + "/op", figure: net(keep, d.empty.bench)})
	d.res.add(row{id: "3", measure: "sink: bare `math.Sqrt(x)` in `for b.Loop()` (compiler keep-alive)",
		reference: "testing.B " + ns(loop) + "/op", figure: net(loop, d.empty.test)})
	d.res.note("Sink: benchspec.Sink costs %s/op against runtime.KeepAlive (ratio %s) and %s/op against testing.B.Loop's compiler keep-alive (ratio %s), each net of its own harness's empty loop.",
		signed(d.sqrt.bench-keep), ratio(d.sqrt.bench/keep), signed((d.sqrt.bench-d.empty.bench)-(loop-d.empty.test)), ratio(d.sqrt.bench/loop))
	return nil
}

// outside is how far v lies outside [lo, hi] (0 inside).
func outside(v, lo, hi float64) float64 {
	switch {
	case v < lo:
		return v - lo
	case v > hi:
		return v - hi
	}
	return 0
}

func minOf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func signed(v float64) string {
	if v >= 0 {
		return "+" + ns(v)
	}
	return "−" + ns(-v)
}
