// Command seeds turns the measurement stories behind benchspec into Go
// benchmarks: each one is a pitfall a harness must defeat or make loud.
//
//	go run ./examples/seeds run examples/seeds/seeds.yaml
package main

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

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

	// A planted slowdown, for testing compare: a chain of multiply-xor
	// steps, 2000 × SEEDS_SPIN_FACTOR of them (default 1), each waiting
	// for the one before, so its cost follows the factor. Run a base with
	// the factor unset and a new report with SEEDS_SPIN_FACTOR=1.05, and
	// compare must call it a 5 % regression (tools/scripts/compare-rates.sh).
	//
	// With -ldflags=-X main.spinExtra=0.1 it also calls plantedExtra for
	// 10 % more steps, a function of its own: what ab --explain must name.
	benchspec.Register("planted.Spin", func(b *benchspec.B) {
		extra := 0
		if spinExtra != "" {
			extra = spinSteps(spinExtra)
		}
		spin(b, spinSteps(cmp.Or(os.Getenv("SEEDS_SPIN_FACTOR"), spinFactor)), extra)
	})

	// planted.Spin's unchanged twin: the same chain at 2000 steps
	// whatever the factor, so that two builds that differ in
	// planted.Spin show what an unchanged benchmark beside it reads
	// (tools/scripts/ab-rates.sh; go test's twin in benchstat-rates.sh).
	benchspec.Register("planted.Twin", func(b *benchspec.B) { spin(b, 2000, 0) })

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

// spin runs a chain of steps multiply-xor steps per op, each waiting
// for the one before, and extra more in plantedExtra (none when 0).
func spin(b *benchspec.B, steps, extra int) {
	x := uint64(1)
	for b.Loop() {
		for range steps {
			x = x*0x9E3779B97F4A7C15 ^ x>>29
		}
		if extra > 0 {
			x = plantedExtra(x, extra)
		}
	}
	benchspec.Sink(x)
}

// spinFactor is planted.Spin's factor when SEEDS_SPIN_FACTOR is unset:
// two builds that differ by it (go build -ldflags=-X
// main.spinFactor=1.02) are two builds of one suite for benchspec ab
// (tools/scripts/ab-rates.sh).
var spinFactor string

// spinExtra is the work planted.Spin adds in plantedExtra, as a factor
// of 2000 steps; none when empty.
var spinExtra string

// plantedExtra runs steps more steps of the chain.
//
//go:noinline
func plantedExtra(x uint64, steps int) uint64 {
	for range steps {
		x = x*0x9E3779B97F4A7C15 ^ x>>29
	}
	return x
}

// spinSteps is 2000 × factor, rounded; 2000 when factor is empty, and
// a panic (a failed fork, loud in the report) when it is not a positive
// number.
func spinSteps(factor string) int {
	if factor == "" {
		return 2000
	}
	f, err := strconv.ParseFloat(factor, 64)
	if err != nil || !(f > 0) || f > 1000 {
		panic(fmt.Sprintf("SEEDS_SPIN_FACTOR=%q: want a positive number such as 1.05", factor))
	}
	return int(math.Round(2000 * f))
}

func main() { benchspec.Main() }
