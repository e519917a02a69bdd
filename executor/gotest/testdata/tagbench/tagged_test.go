//go:build benchspec_tag

package tagbench

import "testing"

func BenchmarkTagged(b *testing.B) {
	for b.Loop() {
		sink = Double(sink + 1)
	}
}
