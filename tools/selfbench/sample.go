package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"
	"unsafe"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// sampleMode is item 6: log.Classic in sample mode against avgt, fork
// for fork alternating, and the memory of a sample histogram holding 10⁷
// samples.
func (d *driver) sampleMode() error {
	rs, rb, ra := d.h.run("log.Classic:sample"), d.h.run("log.Classic:sample#2"), d.h.run("log.Classic:avgt")
	var sample, batched, avgt []protocol.ForkResult
	if err := alternate(rs.Settings.Forks, d.h.forkInto(rs, &sample), d.h.forkInto(rb, &batched), d.h.forkInto(ra, &avgt)); err != nil {
		return err
	}
	s, b, a := d.h.join(rs, sample).Primary, d.h.join(rb, batched).Primary, d.h.join(ra, avgt).Primary
	q, qb := float64(s.Score)/float64(a.Score), float64(b.Score)/float64(a.Score)
	d.res.add(row{id: "6", measure: fmt.Sprintf("sample mode: log.Classic, sample-mode mean over avgt (%d forks each)", len(sample)),
		benchspec: fmt.Sprintf("sample %s ± %s (%d samples)", ns(float64(s.Score)), ns(float64(s.ScoreError)), s.Count),
		reference: fmt.Sprintf("avgt %s ± %s", ns(float64(a.Score)), ns(float64(a.ScoreError))),
		figure:    fmt.Sprintf("ratio %s (%s)", ratio(q), pct(q-1)), target: "within 5 %", verdict: verdict(math.Abs(q-1) <= 0.05)})
	d.res.add(row{id: "6", measure: "… the same with 1000 invocations per sample (batch_size 1000, as in examples/seeds)",
		benchspec: fmt.Sprintf("sample %s ± %s (%d samples)", ns(float64(b.Score)), ns(float64(b.ScoreError)), b.Count),
		reference: "avgt as above",
		figure:    fmt.Sprintf("ratio %s (%s)", ratio(qb), pct(qb-1)), target: "within 5 %", verdict: verdict(math.Abs(qb-1) <= 0.05)})
	if math.Abs(q-1) > 0.05 {
		overhead := medianTimer(sample)
		why := ""
		if math.Abs(qb-1) <= 0.02 {
			why = fmt.Sprintf(" A sample is fenced by two clock reads: it carries one read's cost (%s here, %s of the score), and its one invocation cannot overlap with its neighbours in the CPU's out-of-order window as avgt's back-to-back invocations do (log.Classic's invocations are independent chains of 100 logarithms); batches of 1000 amortise both.",
				ns(overhead), pct(overhead/float64(a.Score)))
		}
		d.res.note("Sample mode: one invocation per sample measures %s against avgt, 1000 per sample %s.%s Spreads: sample %s ± %s, batched %s ± %s, avgt %s ± %s.",
			pct(q-1), pct(qb-1), why,
			ns(float64(s.Score)), ns(float64(s.ScoreError)), ns(float64(b.Score)), ns(float64(b.ScoreError)), ns(float64(a.Score)), ns(float64(a.ScoreError)))
	}

	const n = 10_000_000
	center := float64(a.Score)
	heap, counters := histogramMemory(n, center)
	d.res.add(row{id: "6", measure: fmt.Sprintf("sample histogram, 10⁷ samples (log-normal around %s, 0.1 %% tail to 100 ms)", ns(center)),
		benchspec: fmt.Sprintf("%d KiB heap (%d counters)", heap>>10, counters),
		reference: fmt.Sprintf("bound for any spread 1 ns – 1 h: %d KiB", worstCaseCounters()*8>>10),
		figure:    fmt.Sprintf("%d KiB", heap>>10), target: "≤ 1 MiB", verdict: verdict(heap <= 1<<20)})
	return nil
}

// medianTimer is the median clock-read overhead the forks measured.
func medianTimer(forks []protocol.ForkResult) float64 {
	var v []float64
	for _, f := range forks {
		v = append(v, f.Timer.OverheadNs)
	}
	return median(v)
}

// histogramMemory records n values around center into a histogram and
// returns the heap it holds once the garbage of its growth is collected,
// and its number of counters.
func histogramMemory(n int, center float64) (heap uint64, counters int) {
	r := rand.New(rand.NewPCG(1, 2))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h := &hist.Histogram{}
	for range n {
		v := center * math.Exp(0.05*r.NormFloat64())
		if r.IntN(1000) == 0 {
			// preemption, GC, page faults: anything up to 100 ms
			v = center * math.Exp(r.Float64()*math.Log(float64(100*time.Millisecond)/center))
		}
		h.Record(v)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(h)
	return after.HeapAlloc - before.HeapAlloc, h.Span()
}

// worstCaseCounters is the number of counters a histogram spanning 1 ns
// to 1 h allocates, plus its own size in counters.
func worstCaseCounters() int {
	h := &hist.Histogram{}
	h.Record(1)
	h.Record(float64(time.Hour))
	return h.Span() + int(unsafe.Sizeof(*h)/8)
}
