package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOfBuild: one build of a report is its runs of that build, keyed and
// with params as a spec without builds gives them, so that two builds of
// one report pair up by key; Builds names them in the order of the runs.
func TestOfBuild(t *testing.T) {
	run := func(key, bench string, params map[string]string) Run {
		return Run{Key: key, Benchmark: bench, Params: params}
	}
	r := &Report{Suite: "s", Runs: []Run{
		run("sort/build=base/size=10:avgt", "sort", map[string]string{"build": "base", "size": "10"}),
		run("sort/build=v3/size=10:avgt", "sort", map[string]string{"build": "v3", "size": "10"}),
		run("sqrt/build=base/threads=2:thrpt#2", "sqrt", map[string]string{"build": "base"}),
		run("sqrt/build=v3:avgt", "sqrt", map[string]string{"build": "v3"}),
		run("odd key/build=v3:ss", "sqrt", map[string]string{"build": "v3"}),
		run("list/build=base-2/build=base#avgt", "list", map[string]string{"build": "base"}),
	}}
	if d := cmp.Diff([]string{"base", "v3"}, r.BuildNames()); d != "" {
		t.Errorf("builds (-want +got):\n%s", d)
	}
	type kp struct {
		Key    string
		Params map[string]string
	}
	of := func(name string) []kp {
		var out []kp
		for _, run := range r.OfBuild(name).Runs {
			out = append(out, kp{run.Key, run.Params})
		}
		return out
	}
	want := []kp{{"sort/size=10:avgt", map[string]string{"size": "10"}}, {"sqrt/threads=2:thrpt#2", map[string]string{}}, {"list/build=base-2#avgt", map[string]string{}}}
	if d := cmp.Diff(want, of("base")); d != "" {
		t.Errorf("build base (-want +got):\n%s", d)
	}
	want = []kp{{"sort/size=10:avgt", map[string]string{"size": "10"}}, {"sqrt:avgt", map[string]string{}}, {"odd key:ss", map[string]string{}}}
	if d := cmp.Diff(want, of("v3")); d != "" {
		t.Errorf("build v3 (-want +got):\n%s", d)
	}
	if r.Runs[0].Key != "sort/build=base/size=10:avgt" || r.Runs[0].Params["build"] != "base" {
		t.Errorf("OfBuild changed the report it read: %+v", r.Runs[0])
	}
	if r.OfBuild("nope") != nil || (&Report{}).BuildNames() != nil {
		t.Error("a build no run has: want nil")
	}
}
