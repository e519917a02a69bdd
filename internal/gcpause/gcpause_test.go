package gcpause

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

var sink [][]byte

// TestOffRestores checks that Off turns the collector off under a memory
// limit no higher than before, and that restore puts both back.
func TestOffRestores(t *testing.T) {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	restore := Off(64 << 20)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent while off: %d, want -1", p)
	}
	if l := debug.SetMemoryLimit(-1); l > limit || l <= int64(runtimeBytes())-1 {
		t.Errorf("memory limit while off: %d; before %d, held now %d", l, limit, runtimeBytes())
	}
	restore()
	if p := debug.SetGCPercent(percent); p != percent {
		t.Errorf("GC percent restored to %d, want %d", p, percent)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("memory limit restored to %d, want %d", l, limit)
	}
}

// TestOffIsBounded checks that garbage beyond the headroom is collected:
// the heap goal Off leaves is the headroom above what the runtime holds,
// not unbounded, and allocating ten times the headroom, of which little
// stays alive, starts a collection. It waits for that collection to end
// rather than measuring what the runtime holds right after the loop: on a
// loaded machine the collector's workers can be starved for the whole
// loop (the runtime then held all 320 MiB, beside two CPU hogs), which
// delays the collection, never prevents it.
func TestOffIsBounded(t *testing.T) {
	runtime.GC()
	const headroom = 32 << 20
	before := runtimeBytes()
	restore := Off(headroom)
	defer restore()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.NextGC > before+headroom {
		t.Errorf("heap goal %d MiB while off; the runtime held %d MiB and the headroom is %d MiB", m.NextGC>>20, before>>20, headroom>>20)
	}
	n0 := m.NumGC
	for i := range 320 {
		b := make([]byte, 1<<20)
		b[0] = byte(i)
		sink = append(sink, b)
		if len(sink) > 4 {
			sink = sink[1:]
		}
	}
	sink = nil
	// Not a time limit on the collector: a bound for a test that would
	// otherwise wait forever if nothing collects.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		runtime.ReadMemStats(&m)
		if m.NumGC > n0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no collection within a minute after 320 MiB were allocated under a 32 MiB headroom")
		}
	}
}

// TestRuntimeBytesIsWhatTheLimitCounts checks that runtimeBytes, read
// from runtime.MemStats, is runtime/metrics' total less the released
// heap: what the memory limit counts (runtime/debug.SetMemoryLimit's
// documentation). The metrics are read just before and just after it;
// nothing allocates on the way, so the figures agree unless the runtime
// maps or releases memory in between, which the bounds allow.
func TestRuntimeBytesIsWhatTheLimitCounts(t *testing.T) {
	read := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64() - s[1].Value.Uint64()
	}
	for range 3 {
		before := read()
		got := runtimeBytes()
		after := read()
		lo, hi := min(before, after), max(before, after)
		if got >= lo && got <= hi {
			return
		}
		t.Logf("runtimeBytes %d, runtime/metrics %d before and %d after", got, before, after)
	}
	t.Error("runtimeBytes never lay between runtime/metrics' total less released heap read before and after it")
}
