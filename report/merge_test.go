package report

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
)

// shards splits the fixture's report into two reports of disjoint runs,
// as two shards of one plan would be.
func shards() (a, b *Report) {
	p, forks, env := fixture()
	full := Build(p, forks, env)
	a, b = Build(p, forks, env), Build(p, forks, env)
	a.Runs, b.Runs = full.Runs[:2], full.Runs[2:]
	b.Env.Start, b.Env.End = env.Start.Add(-time.Minute), env.End.Add(time.Hour)
	return a, b
}

func keys(r *Report) []string {
	var out []string
	for _, run := range r.Runs {
		out = append(out, run.Key)
	}
	return out
}

func TestMerge(t *testing.T) {
	a, b := shards()
	b.Complete = false
	b.Specs = append(b.Specs, plan.SpecRef{Path: "other.yaml", SHA256: strings.Repeat("0", 64)})
	got, warnings, err := Merge([]Named{{"a.json", a}, {"b.json", b}})
	if err != nil {
		t.Fatal(err)
	}
	p, forks, env := fixture()
	if diff := cmp.Diff(keys(Build(p, forks, env)), keys(got)); diff != "" {
		t.Errorf("run keys (-want +got):\n%s", diff)
	}
	if got.Complete || len(got.Specs) != 2 || got.Suite != "seeds" || len(warnings) != 0 {
		t.Errorf("complete %v, specs %v, suite %q, warnings %q; want incomplete, 2 specs, seeds, none",
			got.Complete, got.Specs, got.Suite, warnings)
	}
	if !got.Env.Start.Equal(b.Env.Start) || !got.Env.End.Equal(b.Env.End) {
		t.Errorf("env %v – %v, want the earliest start and the latest end", got.Env.Start, got.Env.End)
	}
	validate := string(renderJSON(t, got))
	if _, err := Read(strings.NewReader(validate)); err != nil {
		t.Errorf("merged report does not read back: %v", err)
	}
}

func TestMergeRefusesCollisions(t *testing.T) {
	a, b := shards()
	b.Runs = append(b.Runs, a.Runs...) // b now holds a's runs too
	_, _, err := Merge([]Named{{"a.json", a}, {"b.json", b}})
	var me *MergeError
	if !errors.As(err, &me) {
		t.Fatalf("Merge error = %v, want a *MergeError", err)
	}
	want := []Collision{
		{Key: "counter.Inc1?size=10#avgt", First: "a.json", Second: "b.json"},
		{Key: "counter.Inc1?size=1000#thrpt", First: "a.json", Second: "b.json"},
	}
	if diff := cmp.Diff(want, me.Collisions); diff != "" {
		t.Errorf("collisions (-want +got):\n%s", diff)
	}
	if !strings.Contains(err.Error(), `run "counter.Inc1?size=10#avgt" is in both a.json and b.json`) {
		t.Errorf("error %q does not name the run and both files", err)
	}
}

func TestMergeWarnsOfOtherMachines(t *testing.T) {
	a, b := shards()
	b.Env.CPU, b.Suite = "Other CPU", "other"
	got, warnings, err := Merge([]Named{{"a.json", a}, {"b.json", b}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`b.json was measured elsewhere than a.json: cpu "Other CPU", not "Test CPU @ 3.00GHz"`}; !cmp.Equal(want, warnings) {
		t.Errorf("warnings = %q, want %q", warnings, want)
	}
	if got.Suite != "seeds+other" {
		t.Errorf("suite = %q, want seeds+other", got.Suite)
	}
	if _, _, err := Merge(nil); err == nil {
		t.Errorf("Merge(nil) succeeds")
	}
}

// TestMergeKeepsLabelsAndSources checks that a merged report still says
// what it measured: the parts' labels and sources, each once.
func TestMergeKeepsLabelsAndSources(t *testing.T) {
	a, b := shards()
	src := Source{Module: "example.com/suite", VCS: "git", Revision: "abc", Time: "2026-01-15T02:00:00Z"}
	other := Source{Module: "example.com/lib", Package: "example.com/lib/codec", VCS: "git", Revision: "def", Modified: true}
	a.Label, a.Sources = "build-7", []Source{src}
	b.Label, b.Sources = "build-7", []Source{src, other}
	got, _, err := Merge([]Named{{"a.json", a}, {"b.json", b}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Label != "build-7" {
		t.Errorf("label %q, want build-7 once", got.Label)
	}
	if diff := cmp.Diff([]Source{src, other}, got.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if got.Revision() != "abc" {
		t.Errorf("revision %q, want the first source's, abc", got.Revision())
	}
	b.Label = "build-8"
	if got, _, _ = Merge([]Named{{"a.json", a}, {"b.json", b}}); got.Label != "build-7+build-8" {
		t.Errorf("label %q, want build-7+build-8", got.Label)
	}
}
