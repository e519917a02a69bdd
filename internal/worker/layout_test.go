package worker

import (
	"testing"
	"unsafe"
)

// Loop's counter must sit at the start of a cache line of its own in
// every process: B is two lines long, so the allocator's size class puts
// every B at a multiple of its size, and loop is its first field.
func TestLoopCounterHasACacheLineToItself(t *testing.T) {
	var b B
	if got := unsafe.Offsetof(b.loop); got != 0 {
		t.Errorf("loop at offset %d, want 0", got)
	}
	if got := unsafe.Offsetof(b.r); got < cacheLine {
		t.Errorf("r at offset %d shares the counter's cache line (want ≥ %d)", got, cacheLine)
	}
	if got := unsafe.Sizeof(b); got != 2*cacheLine {
		t.Errorf("B is %d bytes, want %d (a size class whose objects are aligned to their size)", got, 2*cacheLine)
	}
	// As the worker allocates it, between other allocations of every
	// size that could shift a misaligned class.
	var keep []any
	for i := range 64 {
		keep = append(keep, make([]byte, 8+i*8))
		state, _ := Func(func(*B) {}).bind()()
		if addr := uintptr(unsafe.Pointer(&state.loop)); addr%cacheLine != 0 {
			t.Fatalf("allocation %d: the counter at %#x is not at the start of a %d-byte line", i, addr, cacheLine)
		}
		keep = append(keep, state)
	}
	_ = keep
}
