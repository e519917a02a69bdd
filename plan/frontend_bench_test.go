package plan_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// BenchmarkFrontEnd is the front end of a run: spec.Parse (YAML, schema,
// semantics) and plan.Build of a spec of 1 000 entries against 1 000
// registered benchmarks. Such a spec is the largest the front end needs
// to serve well: it should take well under a second on 2 cores.
//
//	go test -run '^$' -bench FrontEnd -benchtime 3x ./plan
func BenchmarkFrontEnd(b *testing.B) {
	const n = 1000
	data, reg := largeSpec(n), largeRegistry(n)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	runs := 0
	for b.Loop() {
		s, err := spec.Parse("large.yaml", data)
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

// largeRegistry is n benchmarks, each with an integer parameter of two
// values.
func largeRegistry(n int) []plan.Benchmark {
	out := make([]plan.Benchmark, n)
	for i := range out {
		out[i] = plan.Benchmark{
			Name:      largeName(i),
			Params:    map[string][]string{"size": {"10", "100"}},
			IntParams: map[string]bool{"size": true},
		}
	}
	return out
}

func largeName(i int) string { return fmt.Sprintf("pkg%03d.Bench%04d", i/100, i) }

// largeSpec is a spec of n entries, each selecting one benchmark of
// largeRegistry by an anchored name and overriding some settings: modes
// always, measurement every other entry, params every fourth, env every
// eighth.
func largeSpec(n int) []byte {
	var b bytes.Buffer
	b.WriteString("version: 1\nname: large\ndefaults:\n  forks: 1\n  warmup: {iterations: 1, time: 10ms}\n  measurement: {iterations: 2, time: 10ms}\nbenchmarks:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - include: '^%s$'\n", strings.ReplaceAll(largeName(i), ".", `\.`))
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

// TestLargeSpecPlans checks that BenchmarkFrontEnd measures what it says:
// its spec is valid and plans every entry (modes alternate one and two,
// each with two sizes), keys unique.
func TestLargeSpecPlans(t *testing.T) {
	s, err := spec.Parse("large.yaml", largeSpec(1000))
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build([]*spec.Spec{s}, largeRegistry(1000))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(p.Runs), (500*1+500*2)*2; got != want {
		t.Errorf("%d runs, want %d", got, want)
	}
	keys := map[string]bool{}
	for _, r := range p.Runs {
		if keys[r.Key] {
			t.Errorf("key %s twice", r.Key)
		}
		keys[r.Key] = true
	}
}
