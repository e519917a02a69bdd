package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
)

// shardFixtures writes the fixture report split into three shards of
// its plan (runs 0 and 3, 1 and 4, 2) and returns their paths and the
// plan's keys.
func shardFixtures(t *testing.T, dir string) ([]string, []string) {
	rep := readFixture(t, baseJSON)
	var planned []string
	for _, r := range rep.Runs {
		planned = append(planned, r.Key)
	}
	var paths []string
	for i, idx := range [][]int{{0, 3}, {1, 4}, {2}} {
		part := *rep
		part.Shard = &plan.ShardInfo{Index: i + 1, Count: 3, PlanSHA256: strings.Repeat("5a", 32), PlannedRuns: planned}
		part.Runs = nil
		for _, j := range idx {
			part.Runs = append(part.Runs, rep.Runs[j])
		}
		paths = append(paths, writeFixture(t, dir, "shard"+string(rune('1'+i))+".json", &part))
	}
	return paths, planned
}

func TestMergeShardsCommand(t *testing.T) {
	dir := t.TempDir()
	shards, planned := shardFixtures(t, dir)
	out := filepath.Join(dir, "merged.json")
	if status, _, stderr := runCmd(t, "merge", shards[2], shards[0], shards[1], "--out", out); status != exitOK {
		t.Fatalf("merge of all shards: status %d: %s", status, stderr)
	}
	merged := readFixture(t, out)
	var got []string
	for _, r := range merged.Runs {
		got = append(got, r.Key)
	}
	if diff := cmp.Diff(planned, got); diff != "" || merged.Shard != nil {
		t.Errorf("merged runs in plan order (-want +got), shard %v:\n%s", merged.Shard, diff)
	}

	status, stdout, stderr := runCmd(t, "merge", shards[0], shards[2])
	want := []string{
		"benchspec merge: shard 2/3 is missing\n",
		`benchspec merge: run "sqrt.Sunk#avgt" is missing` + "\n",
		`benchspec merge: run "log.Classic#sample" is missing` + "\n",
		"benchspec merge: incomplete: 2 of 5 planned runs missing; nothing written",
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("merge without shard 2 lacks %q:\n%s", w, stderr)
		}
	}
	if status != exitFail || stdout != "" {
		t.Errorf("merge without shard 2: status %d, stdout %d bytes; want 1 and nothing", status, len(stdout))
	}
	partial := filepath.Join(dir, "partial.json")
	if status, _, _ := runCmd(t, "merge", shards[0], shards[2], "--allow-incomplete", "--out", partial); status != exitFail {
		t.Errorf("merge --allow-incomplete: status %d, want 1", status)
	}
	if p := readFixture(t, partial); p.Complete || len(p.Runs) != 3 {
		t.Errorf("partial merge: complete %v, %d runs; want incomplete with 3", p.Complete, len(p.Runs))
	}

	other := readFixture(t, shards[1])
	other.Shard.PlanSHA256 = strings.Repeat("0b", 32)
	otherPath := writeFixture(t, dir, "other.json", other)
	status, _, stderr = runCmd(t, "merge", shards[0], otherPath, shards[2])
	if status != exitUsage || !strings.Contains(stderr, "other.json is a shard of another plan than "+shards[0]) ||
		!strings.Contains(stderr, "not the shards of one plan; nothing written") {
		t.Errorf("merge of shards of two plans: status %d:\n%s", status, stderr)
	}
	if status, _, stderr := runCmd(t, slices.Concat([]string{"merge"}, shards, []string{baseJSON})...); status != exitUsage || !strings.Contains(stderr, "is a whole report") {
		t.Errorf("merge of shards and a whole report: status %d:\n%s", status, stderr)
	}
}
