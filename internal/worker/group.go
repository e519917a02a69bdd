package worker

import (
	"sync"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// group coordinates the threads of a fork (JMH's syncIterations): every
// thread starts an iteration only when all threads are ready, so their
// measured windows overlap, and the last thread to finish an iteration
// combines the threads' results into the one iteration the fork reports.
// A fork with one thread is a group of one; nothing then waits.
//
// The threads of a benchmark group (benchspec.RegisterGroup) are all the
// members' threads, in member order: sizes holds each member's count, and
// the combined iteration carries each member's part (Iteration.Members).
type group struct {
	n     int
	sizes []int // a benchmark group's threads per member; nil otherwise
	mode  protocol.Mode
	emit  func(*protocol.Iteration) error
	prof  *profiler
	// barrier, when set, holds each iteration's start until the fork's
	// duet partner is ready too (duetBarrier).
	barrier func()

	mu      sync.Mutex
	cond    *sync.Cond
	arrived int
	gen     int
	aborted bool
	err     error // the first failure of any thread, or of emit

	parts []protocol.Iteration // this iteration's per-thread results, by slot
	got   int                  // the threads that handed this iteration in
}

func newGroup(n int, mode protocol.Mode, prof *profiler, emit func(*protocol.Iteration) error) *group {
	g := &group{n: n, mode: mode, emit: emit, prof: prof}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// await blocks until every thread has called it for this iteration. The
// last to arrive runs last (GC, profiler snapshots) before releasing the
// others. It reports false when the group was aborted.
func (g *group) await(last func()) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.aborted {
		return false
	}
	g.arrived++
	if g.arrived == g.n {
		if last != nil {
			last()
		}
		g.arrived = 0
		g.gen++
		g.cond.Broadcast()
		return !g.aborted
	}
	gen := g.gen
	for gen == g.gen && !g.aborted {
		g.cond.Wait()
	}
	return !g.aborted
}

// abort stops every thread at its next iteration boundary, recording err
// as the fork's failure unless one was recorded first.
func (g *group) abort(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err == nil {
		g.err = err
	}
	g.aborted = true
	g.cond.Broadcast()
}

// failure is the first error of the fork, if any.
func (g *group) failure() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

// submit hands in one thread's finished iteration. The last thread of the
// iteration combines them, adds the profiler's metrics and emits the
// result; a fork of one thread emits its iteration as it is. It reports
// false when the fork must stop.
//
// It runs under the body's frames (Loop's slow path), on a stack that
// may still be the 2 KiB a goroutine starts with: its frame stays small,
// the threads' combining is in gather.
func (g *group) submit(it *protocol.Iteration, slot int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.aborted {
		return false
	}
	if g.n > 1 || g.sizes != nil {
		if it = g.gather(it, slot); it == nil {
			return true
		}
	}
	if g.prof != nil {
		it.Metrics = g.prof.iterationMetrics(it.Ops)
	}
	if err := g.emit(it); err != nil {
		g.err, g.aborted = err, true
		g.cond.Broadcast()
		return false
	}
	return true
}

// gather keeps a copy of one thread's iteration in its slot (the
// thread's place among the fork's threads); to the last thread of the
// iteration it returns the threads' results combined, to the others nil.
//
//go:noinline
func (g *group) gather(it *protocol.Iteration, slot int) *protocol.Iteration {
	if g.parts == nil {
		g.parts = make([]protocol.Iteration, g.n)
	}
	g.parts[slot] = *it
	if g.got++; g.got < g.n {
		return nil
	}
	g.got = 0
	if g.sizes != nil {
		combined := combineGroup(g.mode, g.parts, g.sizes)
		return &combined
	}
	combined := combine(g.mode, g.parts)
	return &combined
}

// combine aggregates the threads' results as JMH does: throughput adds up
// across threads (the ops of all threads over the mean window), while
// average, sample and single-shot time average over threads (all time
// over all ops).
func combine(mode protocol.Mode, parts []protocol.Iteration) protocol.Iteration {
	if len(parts) == 1 {
		return parts[0]
	}
	out := protocol.Iteration{Phase: parts[0].Phase, Index: parts[0].Index}
	var h *hist.Histogram
	for _, p := range parts {
		out.Ops += p.Ops
		out.TimeNs += p.TimeNs
		out.Invocations += p.Invocations
		out.Windows = append(out.Windows, p.Windows...)
		if p.Histogram != nil {
			if h == nil {
				h = &hist.Histogram{}
			}
			h.Merge(hist.FromSnapshot(*p.Histogram))
		}
	}
	if mode.IsRate() { // the threads shared one window
		out.TimeNs /= float64(len(parts))
	}
	if h != nil {
		snap := h.Snapshot()
		out.Histogram = &snap
	}
	return out
}

// combineGroup combines a benchmark group's threads (parts, in member
// order, sizes[i] of member i) into the group's iteration and each
// member's part, with JMH's thread aggregators, as JMH's @Group reports
// its primary result (all threads) and each member's secondary result:
// thrpt adds the threads' rates, avgt averages the threads' times per
// op, sample joins the samples, ss averages the threads' times per op
// (every thread of ss does the same ops, so all time over all ops). Ops
// and Invocations stay the threads' sums, so that they follow from each
// other; the time is what gives the score its value (groupTime).
func combineGroup(mode protocol.Mode, parts []protocol.Iteration, sizes []int) protocol.Iteration {
	out := combine(mode, parts)
	out.TimeNs = groupTime(mode, parts, out)
	out.Members = make([]protocol.Iteration, len(sizes))
	off := 0
	for i, n := range sizes {
		m := combine(mode, parts[off:off+n])
		m.TimeNs = groupTime(mode, parts[off:off+n], m)
		m.Windows = nil
		out.Members[i] = m
		off += n
	}
	return out
}

// groupTime is the time of c, parts combined, that makes c's score JMH's
// aggregate of the parts' scores: for thrpt, c.Ops over the sum of the
// rates (a mean of the windows, weighted by ops, so still within them);
// for avgt, c.Ops times the mean time per op. Sample and ss keep
// combine's time, which already is JMH's.
func groupTime(mode protocol.Mode, parts []protocol.Iteration, c protocol.Iteration) float64 {
	if len(parts) == 1 || !mode.TimedIterations() || mode.Samples() {
		return c.TimeNs
	}
	var sum float64 // Σ ops/time (thrpt) or Σ time/ops (avgt)
	for _, p := range parts {
		if !(p.Ops > 0 && p.TimeNs > 0) {
			return c.TimeNs // no score to aggregate; the executor refuses such a part
		}
		if mode.IsRate() {
			sum += p.Ops / p.TimeNs
		} else {
			sum += p.TimeNs / p.Ops
		}
	}
	if mode.IsRate() {
		return c.Ops / sum
	}
	return c.Ops * sum / float64(len(parts))
}
