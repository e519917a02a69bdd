package plan_test

import (
	"fmt"
	"testing"

	"github.com/benchspec/benchspec/internal/specscale"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// BenchmarkFrontEnd is spec.Parse (YAML, schema, semantics) and
// plan.Build at scale: entries=N is a spec of N entries against 1 000
// registered benchmarks, runs=N one entry whose params expand to N runs.
// Its time per op should grow linearly with N (issue: 10 000 entries and
// 100 000 runs each within 0.3 s); tools/selfbench reports the same
// cases with the peak memory of a fresh process.
func BenchmarkFrontEnd(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data, reg := specscale.Entries(n, 1000), specscale.Benchmarks(1000)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) { frontEnd(b, data, reg) })
	}
	for _, n := range []int{1000, 10000, 100000} {
		data, reg := specscale.Product(n/100, 10, 10)
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) { frontEnd(b, data, reg) })
	}
}

func frontEnd(b *testing.B, data []byte, reg []plan.Benchmark) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	runs := 0
	for b.Loop() {
		s, err := spec.Parse("scale.yaml", data)
		if err != nil {
			b.Fatal(err)
		}
		p, err := plan.Build([]*spec.Spec{s}, reg)
		if err != nil {
			b.Fatal(err)
		}
		runs = len(p.Runs)
	}
	b.ReportMetric(float64(runs), "runs")
}
