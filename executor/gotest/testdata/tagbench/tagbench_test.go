package tagbench

import "testing"

var sink int

func BenchmarkDouble(b *testing.B) {
	for b.Loop() {
		sink = Double(sink)
	}
}
