// Command complexity sweeps three bodies over n for complexity fits:
// one of n steps, one of n² steps and slices.Sort of n random ints.
//
//	go run ./examples/complexity run examples/complexity/complexity.yaml
package main

import (
	"math/rand/v2"
	"slices"

	"github.com/benchspec/benchspec"
)

// steps runs k steps of a dependency chain from h: each step needs the
// last, and each call the last call's result, so the cost is k steps
// whatever the CPU could overlap of independent calls.
func steps(h uint64, k int) uint64 {
	for i := range k {
		h = h*0x9E3779B97F4A7C15 + uint64(i)
	}
	return h
}

func init() {
	benchspec.Register("linear", func(b *benchspec.B) {
		n, h := b.IntParam("n"), uint64(1)
		for b.Loop() {
			h = steps(h, n)
		}
		benchspec.Sink(h)
	}, benchspec.IntParams{"n": {1000, 2000, 4000, 8000, 16000}})
	benchspec.Register("quadratic", func(b *benchspec.B) {
		n, h := b.IntParam("n"), uint64(1)
		for b.Loop() {
			for range n {
				h = steps(h, n)
			}
		}
		benchspec.Sink(h)
	}, benchspec.IntParams{"n": {32, 64, 128, 256, 512}})
	// Each op sorts a fresh copy of the same random input; the copy is
	// linear and small against the sort. The sizes stay small: from some
	// thousands of ints on, the cost per comparison steps up on the
	// machines measured, which no class fits (docs/writing.md).
	benchspec.Register("sort", func(b *benchspec.B) {
		n := b.IntParam("n")
		r := rand.New(rand.NewPCG(1, 2))
		input := make([]int, n)
		for i := range input {
			input[i] = r.Int()
		}
		work := make([]int, n)
		for b.Loop() {
			copy(work, input)
			slices.Sort(work)
		}
		benchspec.Sink(work[0])
	}, benchspec.IntParams{"n": {64, 128, 256, 512, 1024}})
}

func main() { benchspec.Main() }
