// Command params sweeps sorting over sizes and input orders: a
// parameterised benchmark.
//
//	go run ./examples/params run examples/params/params.yaml
package main

import (
	"math/rand/v2"
	"slices"

	"github.com/benchspec/benchspec"
)

func init() {
	// Each invocation sorts a fresh copy of the same input. The copy is
	// timed with the sort: it costs about n/4 ns against the sort's
	// n·log n comparisons, and timing it separately (StopTimer) would
	// cost two clock reads per op instead.
	benchspec.Register("sort.Ints", func(b *benchspec.B) {
		n := b.IntParam("size")
		input := make([]int, n)
		r := rand.New(rand.NewPCG(1, 2)) // a fixed seed: every fork sorts the same data
		for i := range input {
			switch b.Param("order") {
			case "random":
				input[i] = r.Int()
			case "reversed":
				input[i] = n - i
			default:
				b.Fatalf("order %q: want random or reversed", b.Param("order"))
			}
		}
		work := make([]int, n)
		for b.Loop() {
			copy(work, input)
			slices.Sort(work)
		}
		benchspec.Sink(work[0])
	}, benchspec.IntParams{"size": {100, 10000}}, benchspec.Params{"order": {"random"}})
}

func main() { benchspec.Main() }
