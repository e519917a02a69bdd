package plan

import (
	"slices"
	"testing"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// builtRegistry is registry as the builds a and b have it (b with a
// benchmark only it has), each binary its own, and the suite as given.
func builtRegistry() []Benchmark {
	out := append([]Benchmark(nil), registry...)
	for _, build := range []string{"a", "b"} {
		for _, b := range registry {
			b.Build, b.Executable = build, "/cache/suite-"+build
			out = append(out, b)
		}
	}
	return append(out, Benchmark{Name: "only.b", Build: "b", Executable: "/cache/suite-b"})
}

// TestBuildsAreADimension: every run of a spec with builds is measured
// once per build, in that build's binary, the build named among its
// params and so in its key; the builds of a run sit side by side in the
// plan, in the builds' order; a build of which an entry selects nothing
// is left out; the fork is not told the build; a spec without builds
// keeps its keys and the suite as given.
func TestBuildsAreADimension(t *testing.T) {
	built := mustParse(t, `builds: [{name: a}, {name: b, gcflags: -l}]
benchmarks:
  - include: '^sort\.Ints$'
    params: {size: [1, 2], order: [asc]}
  - include: '^only\.b$'
`)
	plain := mustParse(t, "benchmarks:\n  - include: '^sqrt\\.Sunk$'\n")
	p, err := Build([]*spec.Spec{built, plain}, builtRegistry())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"sort.Ints/build=a/order=asc/size=1:avgt", "sort.Ints/build=b/order=asc/size=1:avgt",
		"sort.Ints/build=a/order=asc/size=2:avgt", "sort.Ints/build=b/order=asc/size=2:avgt",
		"only.b/build=b:avgt",
		"sqrt.Sunk:avgt",
	}
	if d := cmp.Diff(want, keys(p)); d != "" {
		t.Errorf("run keys (-want +got):\n%s", d)
	}
	for i, r := range p.Runs {
		exe := ""
		if r.Build != "" {
			exe = "/cache/suite-" + r.Build
		}
		named := slices.Contains(r.Params, Param{Name: BuildParam, Value: r.Build})
		if r.Index != i || r.Executable != exe || named != (r.Build != "") {
			t.Errorf("run %d %s: index %d, build %q among params %v, executable %q; want index %d, executable %q", i, r.Key, r.Index, r.Build, r.Params, r.Executable, i, exe)
		}
		for _, prm := range r.Fork().Params {
			if prm.Name == BuildParam {
				t.Errorf("run %s: the fork is told the build: %v", r.Key, r.Fork().Params)
			}
		}
	}
	if got := p.Runs[0].Fork().Params; len(got) != 2 || got[0].Name != "order" || got[1].Name != "size" {
		t.Errorf("the fork's params %v, want order and size", got)
	}
}

// TestBuildErrors: what a spec with builds cannot have is reported once,
// not once per build: an include that selects nothing in any build,
// forks: 0, a benchmark parameter named build.
func TestBuildErrors(t *testing.T) {
	reg := builtRegistry()
	reg = append(reg, Benchmark{Name: "own", Params: map[string][]string{"build": {"x"}}, Build: "a"},
		Benchmark{Name: "own", Params: map[string][]string{"build": {"x"}}, Build: "b"})
	s := mustParse(t, `builds: [{name: a}, {name: b}]
benchmarks:
  - include: '^nothing$'
  - include: '^empty$'
    forks: 0
  - include: '^own$'
`)
	_, err := Build([]*spec.Spec{s}, reg)
	var got []string
	for _, e := range spec.Errors(err) {
		got = append(got, e.Error())
	}
	want := []string{
		`s.yaml:5:14: include '^nothing$' matches no registered benchmark; closest: own, sort.Ints, empty`,
		`s.yaml:7:12: benchmarks[1].forks: forks: 0 runs in one process of the suite as given, and this spec has builds: each build runs in forks of its own binary; use forks: 1 or more`,
		`s.yaml:8:14: benchmarks[2].include: benchmark "own" has a parameter "build", which in a spec with builds names the build; rename the parameter`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
}
