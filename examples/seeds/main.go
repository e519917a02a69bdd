// Command seeds turns the measurement stories behind benchspec into Go
// benchmarks: each one is a pitfall a harness must defeat or make loud.
//
//	go run ./examples/seeds run examples/seeds/seeds.yaml
package main

import (
	"math"
	"slices"

	"github.com/benchspec/benchspec"
)

func init() {
	// The baseline: what the harness costs per op when the body is empty.
	benchspec.Register("empty", func(b *benchspec.B) {
		for b.Loop() {
		}
	})

	// A chain of 100 dependent logarithms on a running value: each call
	// waits for the previous one, so this is latency, not throughput.
	// v = ln(v) + 2 stays near its fixed point (≈ 3.15), away from the
	// special cases (0, negative, NaN) that math.Log returns early on.
	benchspec.Register("log.Classic", func(b *benchspec.B) {
		x := 1.0
		for b.Loop() {
			v := x
			for range 100 {
				v = math.Log(v) + 2
			}
			benchspec.Sink(v)
			x += 1e-9
		}
	})

	// The dead-code trap: the same loop with the result sunk, and dropped.
	benchspec.Register("sqrt.Sunk", func(b *benchspec.B) {
		x := 0.0
		for b.Loop() {
			benchspec.Sink(math.Sqrt(x))
			x++
		}
	})
	benchspec.Register("sqrt.Dropped", func(b *benchspec.B) {
		x := 0.0
		for b.Loop() {
			_ = math.Sqrt(x) // compiled away: this measures the empty loop
			x++
		}
	})

	// A method call through an interface the compiler cannot see through.
	benchspec.Register("virtual.Call", func(b *benchspec.B) {
		s := shapes[len(shapes)-1]
		sum := 0.0
		for b.Loop() {
			sum += s.Area()
		}
		benchspec.Sink(sum)
	})

	// Inserting into the middle of a growing slice has no steady state:
	// each insert moves more elements than the one before. Time it in
	// single-shot mode, one batch per iteration, each iteration starting
	// from an empty slice.
	benchspec.Register("list.InsertMiddle", func(b *benchspec.B) {
		var s []int64
		b.SetupIteration(func() { s = nil })
		for b.Loop() {
			s = slices.Insert(s, len(s)/2, int64(len(s)))
		}
		benchspec.Sink(len(s))
	})

	// Three identical counters behind one interface. On the JVM, run one
	// after the other in one process, they measured 29, 166 and 278 ms:
	// the call site had seen more types each time. Forks keep them apart.
	for i, name := range []string{"counter.Inc1", "counter.Inc2", "counter.Inc3"} {
		benchspec.Register(name, func(b *benchspec.B) {
			c := newCounter(i)
			for b.Loop() {
				c.Inc()
			}
			benchspec.Sink(c.Get())
		})
	}
}

func main() { benchspec.Main() }
