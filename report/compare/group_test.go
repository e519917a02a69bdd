package compare_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/reporttest"
)

// TestCompareGroup: a group's rows pair row by row, a member's with the
// same member's: readers 20 % slower per op change the readers' row by
// 1/1.2 and the group's by their share, and leave the writer's alone.
func TestCompareGroup(t *testing.T) {
	base, next := report.Build(reporttest.Group(300)), report.Build(reporttest.Group(360))
	res := compare.Compare(base, next, compare.Options{Threshold: 0.05})
	got := map[string]float64{}
	var keys []string
	for _, p := range res.Pairs {
		keys = append(keys, p.Key)
		got[p.Key] = float64(p.Change)
	}
	var want []string
	for _, r := range base.Runs {
		want = append(want, r.Key)
	}
	if diff := cmp.Diff(want, keys); diff != "" || len(res.OnlyBase)+len(res.OnlyNew) > 0 {
		t.Fatalf("pairs (-base's rows +got):\n%s\nonly base %v, only new %v", diff, res.OnlyBase, res.OnlyNew)
	}
	write, read := base.Runs[1].Primary.Score, base.Runs[2].Primary.Score
	for key, change := range map[string]float64{
		"rw/threads=write:1,read:3:thrpt":       float64(read) * (1/1.2 - 1) / float64(write+read),
		"rw:write/threads=write:1,read:3:thrpt": 0,
		"rw:read/threads=write:1,read:3:thrpt":  1/1.2 - 1,
	} {
		if math.Abs(got[key]-change) > 1e-6 {
			t.Errorf("%s: change %.6f, want %.6f", key, got[key], change)
		}
	}
}
