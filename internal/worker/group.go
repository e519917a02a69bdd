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
type group struct {
	n    int
	mode protocol.Mode
	emit func(*protocol.Iteration) error
	prof *profiler
	// barrier, when set, holds each iteration's start until the fork's
	// duet partner is ready too (duetBarrier).
	barrier func()

	mu      sync.Mutex
	cond    *sync.Cond
	arrived int
	gen     int
	aborted bool
	err     error // the first failure of any thread, or of emit

	parts []protocol.Iteration // this iteration's per-thread results
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
func (g *group) submit(it *protocol.Iteration) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.aborted {
		return false
	}
	if g.n > 1 {
		if it = g.gather(it); it == nil {
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

// gather keeps a copy of one thread's iteration; to the last thread of
// the iteration it returns the threads' results combined, to the others
// nil.
//
//go:noinline
func (g *group) gather(it *protocol.Iteration) *protocol.Iteration {
	g.parts = append(g.parts, *it)
	if len(g.parts) < g.n {
		return nil
	}
	combined := combine(g.mode, g.parts)
	g.parts = g.parts[:0]
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
