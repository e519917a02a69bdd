package subbench

import (
	"fmt"
	"os"
	"testing"
)

var sink int

// BenchmarkSum has sub-benchmarks whose names go test rewrites: a
// space, metacharacters, a duplicate (#01) and an empty name (#00).
func BenchmarkSum(b *testing.B) {
	for _, n := range []int{8, 64} {
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			p := make([]byte, n)
			for b.Loop() {
				sink = Sum(p)
			}
		})
	}
	b.Run("size=8", func(b *testing.B) { // a duplicate: size=8#01
		for b.Loop() {
			sink = Sum(make([]byte, 8))
		}
	})
	b.Run("odd name (x.y)", func(b *testing.B) {
		for b.Loop() {
			sink++
		}
	})
	b.Run("", func(b *testing.B) {
		for b.Loop() {
			sink++
		}
	})
}

// BenchmarkNested has two levels of sub-benchmarks.
func BenchmarkNested(b *testing.B) {
	for _, outer := range []string{"a", "b"} {
		b.Run(outer, func(b *testing.B) {
			for _, inner := range []string{"1", "2"} {
				b.Run(inner, func(b *testing.B) {
					for b.Loop() {
						sink++
					}
				})
			}
		})
	}
}

// BenchmarkSkipAll skips every sub-benchmark, as benchmarks do without a
// resource they need.
func BenchmarkSkipAll(b *testing.B) {
	b.Run("needs-gpu", func(b *testing.B) { b.Skip("no GPU here") })
}

// BenchmarkSkipTop skips before any sub-benchmark.
func BenchmarkSkipTop(b *testing.B) {
	if os.Getenv("SUBBENCH_RUN_SKIPTOP") == "" {
		b.Skip("set SUBBENCH_RUN_SKIPTOP to run it")
	}
	for b.Loop() {
		sink++
	}
}

// BenchmarkPrints prints lines that look like results, to stdout, on
// every call: they must not count.
func BenchmarkPrints(b *testing.B) {
	fmt.Printf("BenchmarkPrints-2\t1\t0.0001 ns/op\n")
	fmt.Printf("BenchmarkPrints\t1\t0.0001 ns/op\n")
	for b.Loop() {
		sink++
	}
	b.Log("BenchmarkPrints 1 0.0001 ns/op")
}

// BenchmarkCustomOnly replaces ns/op by its own metric, which go test
// accepts.
func BenchmarkCustomOnly(b *testing.B) {
	for b.Loop() {
		sink++
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(42, "widgets/op")
}

// BenchmarkFails fails.
func BenchmarkFails(b *testing.B) {
	b.Fatal("it is broken")
}

// BenchmarkCalls appends b.N to the file $SUBBENCH_CALLS on every call:
// how often the test binary ran it, and with which b.N.
func BenchmarkCalls(b *testing.B) {
	if path := os.Getenv("SUBBENCH_CALLS"); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintln(f, b.N)
		f.Close()
	}
	for i := 0; i < b.N; i++ {
		sink++
	}
}

// BenchmarkSlashes has a sub-benchmark whose name holds a '/', so that
// one result's name (Slashes/a) is a prefix of another's
// (Slashes/a/parallel), as in real packages (b.Run("32 types/parallel")
// beside b.Run("32 types")).
func BenchmarkSlashes(b *testing.B) {
	b.Run("a", func(b *testing.B) {
		for b.Loop() {
			sink++
		}
	})
	b.Run("a/parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
			}
		})
	})
}
