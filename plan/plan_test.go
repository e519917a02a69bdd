package plan

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

var registry = []Benchmark{
	{Name: "empty"},
	{Name: "sort.Ints", Params: map[string][]string{"size": {"10", "1000"}, "order": {"asc", "rand"}}, IntParams: map[string]bool{"size": true}},
	{Name: "sqrt.Dropped"},
	{Name: "sqrt.Sunk"},
}

func mustParse(t *testing.T, body string) *spec.Spec {
	t.Helper()
	s, err := spec.Parse("s.yaml", []byte("version: 1\nname: t\n"+body))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return s
}

func keys(p *Plan) []string {
	var out []string
	for _, r := range p.Runs {
		out = append(out, r.Key)
	}
	return out
}

func TestExpansionOrder(t *testing.T) {
	s := mustParse(t, `defaults: {modes: [avgt, thrpt]}
benchmarks:
  - include: 'sqrt'
    exclude: 'Dropped'
  - include: '^sort\.'
    modes: [ss]
    params: {size: [1, 2]}
  - include: '^sqrt\.Sunk$'
    modes: [avgt]
`)
	p, err := Build([]*spec.Spec{s}, registry)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"sqrt.Sunk:avgt", "sqrt.Sunk:thrpt",
		"sort.Ints/order=asc/size=1:ss", "sort.Ints/order=asc/size=2:ss",
		"sort.Ints/order=rand/size=1:ss", "sort.Ints/order=rand/size=2:ss",
		"sqrt.Sunk:avgt#2",
	}
	if d := cmp.Diff(want, keys(p)); d != "" {
		t.Errorf("run keys (-want +got):\n%s", d)
	}
	for i, r := range p.Runs {
		if r.Index != i || r.Spec != "s.yaml" {
			t.Errorf("run %d: index %d spec %q", i, r.Index, r.Spec)
		}
	}
	if p.Runs[6].Entry != 2 {
		t.Errorf("last run's entry = %d, want 2", p.Runs[6].Entry)
	}
}

func TestEstimate(t *testing.T) {
	s := mustParse(t, `defaults:
  forks: 2
  warmup_forks: 1
  warmup: {iterations: 2, time: 100ms}
  measurement: {iterations: 3, time: 200ms}
benchmarks:
  - include: '^empty$'
`)
	p, err := Build([]*spec.Spec{s}, registry)
	if err != nil {
		t.Fatal(err)
	}
	want := 3 * (ForkOverhead + 200*time.Millisecond + 600*time.Millisecond)
	if p.Estimate != want || p.Runs[0].Estimate != want {
		t.Errorf("estimate %v (run %v), want %v", p.Estimate, p.Runs[0].Estimate, want)
	}
}

// TestEstimateOfAPackageBenchmark: a fork of a go test benchmark costs
// its test binary's start and testing.B's b.N ramp on every timed
// iteration, which the estimate of its runs includes.
func TestEstimateOfAPackageBenchmark(t *testing.T) {
	s := spec.DefaultSettings()
	s.Forks, s.WarmupForks = 3, 0
	s.Warmup = spec.Iterations{Iterations: 2, Time: 100 * time.Millisecond, BatchSize: 1}
	s.Measurement = spec.Iterations{Iterations: 4, Time: 100 * time.Millisecond, BatchSize: 1}
	r := Run{Benchmark: "Empty", Mode: spec.ModeAverageTime, Settings: s}
	if got, want := estimate(&r), 3*(ForkOverhead+600*time.Millisecond); got != want {
		t.Errorf("registered benchmark: estimate %v, want %v", got, want)
	}
	r.GoTest = &GoTest{ImportPath: "example.com/p", Func: "BenchmarkEmpty", Name: "BenchmarkEmpty"}
	if got, want := estimate(&r), 3*(ForkOverhead+GoTestForkOverhead+6*120*time.Millisecond); got != want {
		t.Errorf("package benchmark: estimate %v, want %v: 3 forks of the test binary's start and 6 iterations of 100 ms with testing.B's ramp", got, want)
	}
}

func TestPlanErrors(t *testing.T) {
	s := mustParse(t, `benchmarks:
  - include: '^sqrt\.Sunkk$'
  - include: '^sort\.Ints$'
    params: {size: [10, big], depth: [1]}
  - include: '^empty$'
    exclude: 'empty'
`)
	_, err := Build([]*spec.Spec{s}, registry)
	var got []string
	for _, e := range spec.Errors(err) {
		got = append(got, e.Error())
	}
	want := []string{
		`s.yaml:4:14: include '^sqrt\.Sunkk$' matches no registered benchmark; closest: sqrt.Sunk, sort.Ints, sqrt.Dropped`,
		`s.yaml:6:14: params.size: "big" is not an integer (benchmark "sort.Ints" declares size as an integer parameter)`,
		`s.yaml:6:31: params: no selected benchmark declares parameter "depth" (declared: order, size)`,
		`s.yaml:7:14: include '^empty$' with exclude 'empty' matches no registered benchmark; closest: empty, sort.Ints, sqrt.Sunk`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"counter.Inc1", "counter.Inc2", "log.Classic", "sqrt.Sunk"}
	if got := strings.Join(closest(`^log\.Clasic$`, names, 1), ","); got != "log.Classic" {
		t.Errorf("closest = %s", got)
	}
}

// TestEstimateSaturates: the longest settings the schema allows (2000
// forks of 100 000 iterations of 24h) overflow a time.Duration; the
// estimate is then the longest one, never negative, and so is a plan's
// sum of such runs.
func TestEstimateSaturates(t *testing.T) {
	s := spec.Settings{Forks: 1000, WarmupForks: 1000}
	s.Warmup = spec.Iterations{Iterations: 100000, Time: 24 * time.Hour}
	s.Measurement = spec.Iterations{Iterations: 100000, Time: 24 * time.Hour}
	r := Run{Mode: spec.ModeAverageTime, Settings: s}
	if got := estimate(&r); got != math.MaxInt64 {
		t.Errorf("estimate = %v, want the longest duration", got)
	}
	r.Mode = spec.ModeSingleShot
	want := 2000 * (ForkOverhead + 200000*ssIterationGuess)
	if got := estimate(&r); got != want {
		t.Errorf("single-shot estimate = %v, want %v", got, want)
	}
	if got := AddEstimates(math.MaxInt64, time.Second); got != math.MaxInt64 {
		t.Errorf("AddEstimates(max, 1s) = %v, want the longest duration", got)
	}
}
