package broken

import "testing"

func BenchmarkBroken(b *testing.B) {
	var n int = "not a number"
	for b.Loop() {
		n++
	}
}
