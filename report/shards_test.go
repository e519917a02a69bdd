package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
)

// parts splits the fixture's report into the n parts of its plan, as n
// shards would report them.
func parts(n int) (whole *Report, shards []Named) {
	p, forks, env := fixture()
	whole = Build(p, forks, env)
	for i := 1; i <= n; i++ {
		part, err := plan.Shard(p, i, n)
		if err != nil {
			panic(err)
		}
		rep := Build(p, forks, env)
		rep.Shard = &plan.ShardInfo{Index: i, Count: n, PlanSHA256: part.Shard.PlanSHA256, PlannedRuns: part.Shard.PlannedRuns}
		rep.Runs = nil
		for _, r := range part.Runs {
			for _, run := range whole.Runs {
				if run.Key == r.Key {
					rep.Runs = append(rep.Runs, run)
				}
			}
		}
		shards = append(shards, Named{Name: "shard" + string(rune('0'+i)) + ".json", Report: rep})
	}
	return whole, shards
}

func TestMergeShards(t *testing.T) {
	whole, shards := parts(3)
	// the parts come in any order; the merge has the plan's
	got, _, err := Merge([]Named{shards[2], shards[0], shards[1]})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(keys(whole), keys(got)); diff != "" {
		t.Errorf("run keys (-want +got):\n%s", diff)
	}
	if got.Shard != nil || got.Complete != whole.Complete {
		t.Errorf("merged shard %v, complete %v; want a whole report, complete %v", got.Shard, got.Complete, whole.Complete)
	}
}

func TestMergeNamesMissingShards(t *testing.T) {
	_, shards := parts(3)
	var missing []string
	for _, r := range shards[1].Report.Runs {
		missing = append(missing, r.Key)
	}
	got, _, err := Merge([]Named{shards[0], shards[2]})
	var ie *IncompleteError
	if !errors.As(err, &ie) {
		t.Fatalf("Merge without shard 2 = %v, want an *IncompleteError", err)
	}
	if diff := cmp.Diff(&IncompleteError{Count: 3, Planned: 4, MissingShards: []int{2}, MissingRuns: missing}, ie); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if want := "shard 2/3 not given): " + strings.Join(missing, ", "); !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error %q does not end in %q", err, want)
	}
	if got == nil || got.Complete {
		t.Errorf("Merge returns no report or a complete one with the error")
	}
}

func TestMergeRefusesMismatchedShards(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(shards []Named) []Named
		want   string
	}{
		{"other plan", func(s []Named) []Named {
			s[1].Report.Shard.PlanSHA256 = strings.Repeat("ab", 32)
			return s
		}, "shard2.json is a shard of another plan than shard1.json"},
		{"other count", func(s []Named) []Named {
			s[1].Report.Shard.Count = 4
			return s
		}, "shard2.json is shard 2/4, shard1.json shard 1/3"},
		{"twice", func(s []Named) []Named {
			return append(s, Named{Name: "again.json", Report: s[0].Report})
		}, "shard 1/3 is given twice: shard1.json and again.json"},
		{"whole report", func(s []Named) []Named {
			whole, _ := parts(3)
			return append([]Named{{Name: "whole.json", Report: whole}}, s...)
		}, "whole.json is a whole report, shard1.json shard 1/3 of a plan"},
		{"unplanned run", func(s []Named) []Named {
			s[0].Report.Runs[0].Key = "other:avgt"
			return s
		}, `shard1.json holds run "other:avgt", which its plan does not have`},
	} {
		_, shards := parts(3)
		_, _, err := Merge(tc.change(shards))
		var se *ShardError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Merge error = %v, want a *ShardError saying %q", tc.name, err, tc.want)
		}
	}
}
