// Command gc shows the gc profiler: bytes and allocations per op, GC
// cycles and pause time, read outside the timed window.
//
//	go run ./examples/gc run examples/gc/gc.yaml
package main

import "github.com/benchspec/benchspec"

// heap is where allocations go so that they escape to the heap; Sink
// alone lets the compiler keep a slice on the stack.
var heap []byte

func init() {
	benchspec.Register("alloc.1KiB", func(b *benchspec.B) {
		for b.Loop() {
			heap = make([]byte, 1024)
		}
	})
	benchspec.Register("alloc.None", func(b *benchspec.B) {
		buf := make([]byte, 1024)
		for b.Loop() {
			buf[0]++
		}
		benchspec.Sink(buf[0])
	})
	benchspec.Register("alloc.Reuse", func(b *benchspec.B) {
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			buf = append(buf[:0], "reused buffer, no allocation"...)
		}
		benchspec.Sink(len(buf))
	})
}

func main() { benchspec.Main() }
