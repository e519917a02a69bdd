package gcpause

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
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
// allocating ten times the headroom, of which little stays alive, leaves
// the runtime holding about the headroom, not all of it.
func TestOffIsBounded(t *testing.T) {
	runtime.GC()
	const headroom = 32 << 20
	before := runtimeBytes()
	restore := Off(headroom)
	defer restore()
	var gcs runtime.MemStats
	runtime.ReadMemStats(&gcs)
	n0 := gcs.NumGC
	for i := range 320 {
		b := make([]byte, 1<<20)
		b[0] = byte(i)
		sink = append(sink, b)
		if len(sink) > 4 {
			sink = sink[1:]
		}
	}
	held := runtimeBytes()
	runtime.ReadMemStats(&gcs)
	if gcs.NumGC == n0 {
		t.Error("no collection while 320 MiB were allocated under a 32 MiB headroom")
	}
	if held > before+3*headroom {
		t.Errorf("the runtime holds %d MiB, %d MiB more than before; the headroom is %d MiB", held>>20, (held-before)>>20, headroom>>20)
	}
	sink = nil
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
