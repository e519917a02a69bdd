package main

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/plan"
)

// workload is one benchmark body written once per harness with the same
// statements inside the loop. It cannot be written once: a body generic
// over "something with Loop() bool" would call Loop through a dictionary,
// not inline it, and measure the call instead of the harness.
//
// testN is the same body in the classic `for range b.N` loop, which
// testing.B runs without the compiler keep-alive of `for b.Loop()`: the
// control that tells a harness difference from a code difference.
type workload struct {
	name  string
	bench func(*benchspec.B) // nil: testing.B only
	test  func(*testing.B)   // nil: benchspec only
	testN func(*testing.B)
	ints  benchspec.IntParams
}

// workloads is every body the self-benchmark measures, by name. The same
// name selects the benchspec body in a spec and the testing.B body in a
// testing child.
var workloads = []workload{
	{name: "empty",
		bench: func(b *benchspec.B) {
			for b.Loop() {
			}
		},
		test: func(b *testing.B) {
			for b.Loop() {
			}
		},
		testN: func(b *testing.B) {
			for range b.N {
			}
		}},
	{name: "sqrt.Sunk",
		bench: func(b *benchspec.B) {
			x := 0.0
			for b.Loop() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		},
		test: func(b *testing.B) {
			x := 0.0
			for b.Loop() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		},
		testN: func(b *testing.B) {
			x := 0.0
			for range b.N {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		}},
	// The two bodies above in `for range b.Invocations()`, benchspec's loop
	// with its counter in a register (the loop-spread rows).
	{name: "empty" + invocationsSuffix,
		bench: func(b *benchspec.B) {
			for range b.Invocations() {
			}
		}},
	{name: "sqrt.Sunk" + invocationsSuffix,
		bench: func(b *benchspec.B) {
			x := 0.0
			for range b.Invocations() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		}},
	// The same square root kept alive three ways: runtime.KeepAlive in
	// benchspec's loop, and nothing at all in testing.B's loop, whose
	// compiler transformation keeps call results alive by itself.
	{name: "sqrt.KeepAlive",
		bench: func(b *benchspec.B) {
			x := 0.0
			for b.Loop() {
				runtime.KeepAlive(math.Sqrt(x))
				x++
			}
		}},
	{name: "sqrt.LoopKeepAlive",
		test: func(b *testing.B) {
			x := 0.0
			for b.Loop() {
				math.Sqrt(x)
				x++
			}
		}},
	{name: "map.Lookup",
		bench: func(b *benchspec.B) {
			m, keys := mapFixture()
			i := 0
			for b.Loop() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		},
		test: func(b *testing.B) {
			m, keys := mapFixture()
			i := 0
			for b.Loop() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		},
		testN: func(b *testing.B) {
			m, keys := mapFixture()
			b.ResetTimer()
			i := 0
			for range b.N {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		}},
	// map.Lookup in `for range b.Invocations()` (item 2 shows it beside
	// the `for b.Loop()` form).
	{name: "map.Lookup" + invocationsSuffix,
		bench: func(b *benchspec.B) {
			m, keys := mapFixture()
			i := 0
			for range b.Invocations() {
				benchspec.Sink(m[keys[i&(len(keys)-1)]])
				i++
			}
		}},
	// As in examples/seeds: 100 dependent logarithms on a running value.
	{name: "log.Classic",
		bench: func(b *benchspec.B) {
			x := 1.0
			for b.Loop() {
				v := x
				for range 100 {
					v = math.Log(v) + 2
				}
				benchspec.Sink(v)
				x += 1e-9
			}
		},
		test: func(b *testing.B) {
			x := 1.0
			for b.Loop() {
				v := x
				for range 100 {
					v = math.Log(v) + 2
				}
				benchspec.Sink(v)
				x += 1e-9
			}
		},
		testN: func(b *testing.B) {
			x := 1.0
			for range b.N {
				v := x
				for range 100 {
					v = math.Log(v) + 2
				}
				benchspec.Sink(v)
				x += 1e-9
			}
		}},
	{name: "sort.Ints1000",
		bench: func(b *benchspec.B) {
			input, work := sortFixture()
			for b.Loop() {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		},
		test: func(b *testing.B) {
			input, work := sortFixture()
			for b.Loop() {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		},
		testN: func(b *testing.B) {
			input, work := sortFixture()
			b.ResetTimer()
			for range b.N {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		}},
	{name: "spin.1ms",
		bench: func(b *benchspec.B) {
			for b.Loop() {
				spin(time.Millisecond)
			}
		},
		test: func(b *testing.B) {
			for b.Loop() {
				spin(time.Millisecond)
			}
		},
		testN: func(b *testing.B) {
			for range b.N {
				spin(time.Millisecond)
			}
		}},
	// Item 2's other workloads in `for range b.Invocations()`.
	{name: "log.Classic" + invocationsSuffix,
		bench: func(b *benchspec.B) {
			x := 1.0
			for range b.Invocations() {
				v := x
				for range 100 {
					v = math.Log(v) + 2
				}
				benchspec.Sink(v)
				x += 1e-9
			}
		}},
	{name: "sort.Ints1000" + invocationsSuffix,
		bench: func(b *benchspec.B) {
			input, work := sortFixture()
			for range b.Invocations() {
				copy(work, input)
				slices.Sort(work)
			}
			benchspec.Sink(work[0])
		}},
	{name: "spin.1ms" + invocationsSuffix,
		bench: func(b *benchspec.B) {
			for range b.Invocations() {
				spin(time.Millisecond)
			}
		}},
	// The minimal fork: an empty body whose timestamps (wall clock, Unix
	// ns) let the parent split the fork's wall time into its parts.
	{name: "fork.Minimal",
		bench: func(b *benchspec.B) {
			b.ReportMetric(float64(processStart.UnixNano()), metricMainUnixNs)
			b.ReportMetric(float64(time.Now().UnixNano()), metricBodyUnixNs)
			for b.Loop() {
			}
			b.ReportMetric(float64(time.Now().UnixNano()), metricLoopEndUnixNs)
		}},
	// The wall-time efficiency plan: 20 runs from one parameter.
	{name: "efficiency",
		bench: func(b *benchspec.B) {
			x := 0.0
			for b.Loop() {
				benchspec.Sink(math.Sqrt(x))
				x++
			}
		},
		ints: benchspec.IntParams{"run": seq(1, 20)}},
}

// Metrics fork.Minimal reports: when the fork's main package was
// initialised, when the body started and when its loop ended.
const (
	metricMainUnixNs    = "main_unix_ns"
	metricBodyUnixNs    = "body_unix_ns"
	metricLoopEndUnixNs = "loop_end_unix_ns"
)

// processStart is taken when this package is initialised: after the
// runtime and every imported package have started, just before main.
var processStart = time.Now()

func init() {
	for _, w := range workloads {
		if w.bench == nil {
			continue
		}
		if w.ints != nil {
			benchspec.Register(w.name, w.bench, w.ints)
		} else {
			benchspec.Register(w.name, w.bench)
		}
	}
}

// registry is what plan.Build needs of the benchmarks registered above
// (the root package keeps its own list unexported).
func registry() []plan.Benchmark {
	var out []plan.Benchmark
	for _, w := range workloads {
		if w.bench == nil {
			continue
		}
		b := plan.Benchmark{Name: w.name, Params: map[string][]string{}, IntParams: map[string]bool{}}
		for k, vs := range w.ints {
			for _, v := range vs {
				b.Params[k] = append(b.Params[k], strconv.Itoa(v))
			}
			b.IntParams[k] = true
		}
		out = append(out, b)
	}
	return out
}

// testBody returns the testing.B body of the named workload: its
// `for b.Loop()` form, or with classic its `for range b.N` form.
func testBody(name string, classic bool) (func(*testing.B), bool) {
	for _, w := range workloads {
		if w.name != name {
			continue
		}
		if classic {
			return w.testN, w.testN != nil
		}
		return w.test, w.test != nil
	}
	return nil, false
}

// mapFixture is a map of 1024 random keys (fixed seed) and its keys in
// random order.
func mapFixture() (map[int]int, []int) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([]int, 1024)
	m := make(map[int]int, len(keys))
	for i := range keys {
		keys[i] = r.Int()
		m[keys[i]] = i
	}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return m, keys
}

// sortFixture is 1000 random ints (fixed seed) and a slice to sort them in.
func sortFixture() (input, work []int) {
	r := rand.New(rand.NewPCG(1, 2))
	input = make([]int, 1000)
	for i := range input {
		input[i] = r.Int()
	}
	return input, make([]int, len(input))
}

// spin busy-waits for d on the monotonic clock.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}
