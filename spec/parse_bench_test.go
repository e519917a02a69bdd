package spec_test

import (
	"fmt"
	"testing"

	"github.com/benchspec/benchspec/internal/specscale"
	"github.com/benchspec/benchspec/spec"
)

// BenchmarkParse is spec.Parse alone (YAML, schema, semantics, the Spec)
// on the specs of plan's BenchmarkFrontEnd: N entries, each selecting
// one of 1 000 benchmarks.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data := specscale.Entries(n, 1000)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := spec.Parse("scale.yaml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
