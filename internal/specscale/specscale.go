// Package specscale generates the large specs and registries that measure
// the front end (spec.Parse and plan.Build) at scale: the Go benchmarks of
// package plan and tools/selfbench's front-end rows use the same ones,
// so that both measure the same thing.
package specscale

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/plan"
)

// Benchmarks is a registry of n benchmarks in groups of 100, each with an
// integer parameter of two values.
func Benchmarks(n int) []plan.Benchmark {
	out := make([]plan.Benchmark, n)
	for i := range out {
		out[i] = plan.Benchmark{
			Name:      Name(i),
			Params:    map[string][]string{"size": {"10", "100"}},
			IntParams: map[string]bool{"size": true},
		}
	}
	return out
}

// Name is the name of Benchmarks' i-th benchmark.
func Name(i int) string { return fmt.Sprintf("pkg%03d.Bench%04d", i/100, i) }

// Entries is a spec of n entries, each selecting one benchmark of
// Benchmarks(names) by an anchored name and overriding some settings:
// modes always, measurement every other entry, params every fourth, env
// every eighth. That is about 7 YAML values and 84 bytes per entry.
func Entries(n, names int) []byte {
	var b bytes.Buffer
	b.WriteString("version: 1\nname: scale\ndefaults:\n  forks: 1\n  warmup: {iterations: 1, time: 10ms}\n  measurement: {iterations: 2, time: 10ms}\nbenchmarks:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - include: '^%s$'\n", strings.ReplaceAll(Name(i%names), ".", `\.`))
		if i%2 == 0 {
			b.WriteString("    modes: [avgt]\n    measurement: {iterations: 3}\n")
		} else {
			b.WriteString("    modes: [avgt, thrpt]\n")
		}
		if i%4 == 1 {
			b.WriteString("    params: {size: [10, 1000]}\n")
		}
		if i%8 == 3 {
			b.WriteString("    env: {GOGC: \"200\"}\n")
		}
	}
	return b.Bytes()
}

// Product is one entry whose three parameters expand to a×b×c runs, and
// the one benchmark it selects.
func Product(a, b, c int) ([]byte, []plan.Benchmark) {
	list := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = strconv.Itoa(i)
		}
		return "[" + strings.Join(vs, ", ") + "]"
	}
	data := fmt.Sprintf("version: 1\nname: grid\nbenchmarks:\n  - include: '^grid$'\n    params:\n      a: %s\n      b: %s\n      c: %s\n", list(a), list(b), list(c))
	reg := []plan.Benchmark{{
		Name:      "grid",
		Params:    map[string][]string{"a": {"0"}, "b": {"0"}, "c": {"0"}},
		IntParams: map[string]bool{"a": true, "b": true, "c": true},
	}}
	return []byte(data), reg
}
