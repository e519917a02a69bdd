// Package gcpause turns the garbage collector off for a burst of
// allocation whose memory stays mostly live, such as parsing a spec
// (spec.Parse): a spec of 10 000 entries allocates about 55 MB, most of
// it alive until its Spec is built, so the collector's cycles on the way
// (six or seven, each marking a heap that only grew) find little to free,
// and on a 2-core machine they take CPU from the parse itself. With the
// collector off the peak heap is what was allocated, a few MB more than
// with it on (the parse's garbage), and a memory limit keeps it bounded
// whatever the input.
//
// It is no gain everywhere: plan.Build of 100 000 runs is 50 % slower
// with the collector off, because its background marking reads the
// freshly allocated run slice and so takes that memory's page faults on
// the other CPU, ahead of the goroutine filling it. Measure before using
// it (tools/scripts/frontend-ab.sh).
package gcpause

import (
	"math"
	"runtime"
	"runtime/debug"
)

// Off turns the garbage collector off until the returned function is
// called, which restores the previous settings. While it is off, the
// collector still runs if the memory the Go runtime holds would exceed
// what it holds now by more than headroom bytes (or an earlier, lower
// memory limit, such as GOMEMLIMIT's): a hostile or huge input costs
// collections, never unbounded memory.
func Off(headroom uint64) (restore func()) {
	prevLimit := debug.SetMemoryLimit(-1)
	limit := int64(math.MaxInt64)
	if total := runtimeBytes(); total+headroom < math.MaxInt64 {
		limit = int64(total + headroom)
	}
	limit = min(limit, prevLimit)
	debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}

// runtimeBytes is all the memory the Go runtime has mapped and not
// released: what a memory limit counts. It reads runtime.MemStats, whose
// Sys and HeapReleased are runtime/metrics' /memory/classes/total:bytes
// and /memory/classes/heap/released:bytes: importing runtime/metrics
// would cost every process of a suite binary its package init (about
// 0.5 ms and 95 allocations at start-up) for a figure read once per
// parse, while ReadMemStats' stop of the world costs tens of
// microseconds when it is called.
func runtimeBytes() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	total := m.Sys
	if m.HeapReleased <= total {
		total -= m.HeapReleased
	}
	return total
}
