// Command history is the suite of the nightly-history example: two
// benchmarks doing the same work, one of whose cost follows an
// environment variable, so that a regression can be planted in a series
// of real batches and benchmark history asked to find it.
//
//	for i in $(seq 12); do
//	  BENCHSPEC_EXAMPLE_COST=1.00 go run ./examples/history run --results-dir results \
//	    --label night-$i examples/history/history.yaml
//	done
//	go run ./cmd/benchspec history results --fail-on-regression
//
// tools/scripts/planted-regression.sh runs the whole demonstration: six
// batches at 1.00, six at 1.08.
package main

import (
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/benchspec/benchspec"
)

// EnvCost scales the work of planted.Work: 1.08 makes it 8 % slower. It
// is read once per fork, before the benchmark runs.
const EnvCost = "BENCHSPEC_EXAMPLE_COST"

// baseRounds is the work of one operation at cost 1.00: about a
// microsecond of dependent arithmetic, which no compiler removes and
// no cache affects.
const baseRounds = 1000

func init() {
	benchspec.Register("planted.Work", func(b *benchspec.B) {
		rounds := int(math.Round(baseRounds * cost()))
		for b.Loop() {
			benchspec.Sink(work(rounds))
		}
	})
	benchspec.Register("steady.Work", func(b *benchspec.B) {
		for b.Loop() {
			benchspec.Sink(work(baseRounds))
		}
	})
}

// cost is EnvCost's factor, 1 when unset; anything else that is not a
// positive number stops the fork, so a typo cannot pass for a result.
func cost() float64 {
	v := os.Getenv(EnvCost)
	if v == "" {
		return 1
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0) || f > 100 {
		fmt.Fprintf(os.Stderr, "%s=%q: want a positive factor such as 1.08\n", EnvCost, v)
		os.Exit(2)
	}
	return f
}

// work is rounds steps of a xorshift generator, each depending on the
// last.
func work(rounds int) uint64 {
	x := uint64(88172645463325252)
	for range rounds {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func main() { benchspec.Main() }
