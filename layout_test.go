package benchspec

import (
	"testing"
	"unsafe"
)

// The user's B holds the worker's state by value at offset 0 and adds
// nothing, so the worker's layout (the loop counter alone at the start of
// a cache line, internal/worker's TestLoopCounterHasACacheLineToItself)
// holds for the B a body is bound to.
func TestBoundBKeepsTheCounterOnItsOwnLine(t *testing.T) {
	var b B
	if unsafe.Offsetof(b.w) != 0 || unsafe.Sizeof(b) != unsafe.Sizeof(b.w) {
		t.Fatalf("B is %d bytes with w at %d; want w alone at 0 (%d bytes)", unsafe.Sizeof(b), unsafe.Offsetof(b.w), unsafe.Sizeof(b.w))
	}
	for i := range 32 {
		state, _ := bind(func(*B) {})()
		if addr := uintptr(unsafe.Pointer(state)); addr%64 != 0 {
			t.Fatalf("bind %d: state at %#x, not at the start of a 64-byte line", i, addr)
		}
	}
}
