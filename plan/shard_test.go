package plan

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// estimated is a plan of runs with the given estimates, in seconds.
func estimated(secs ...int) *Plan {
	p := &Plan{Suite: "t"}
	for i, s := range secs {
		d := time.Duration(s) * time.Second
		p.Runs = append(p.Runs, Run{Index: i, Key: fmt.Sprintf("r%02d:avgt", i), Benchmark: fmt.Sprintf("r%02d", i), Mode: "avgt", Estimate: d})
		p.Estimate += d
	}
	return p
}

// Longest estimate first, each to the least loaded part (ties to the
// lowest number; equal estimates in key order).
func TestAssignLongestFirst(t *testing.T) {
	p := estimated(5, 9, 1, 7, 3, 3, 2)
	// r01 9→1, r03 7→2, r00 5→3, r04 3→3 (8), r05 3→2 (10), r06 2→3 (10), r02 1→1 (10)
	want := []int{3, 1, 1, 2, 3, 2, 3}
	if diff := cmp.Diff(want, Assign(p, 3)); diff != "" {
		t.Errorf("Assign (-want +got):\n%s", diff)
	}
}

// The parts of n are disjoint, cover the plan, keep plan order, are
// balanced within the longest run, and record the whole plan.
func TestShardPartsCoverThePlan(t *testing.T) {
	p := estimated(5, 9, 1, 7, 3, 3, 2, 8, 8, 4, 6)
	for n := 1; n <= 13; n++ {
		seen := map[string]int{}
		var loads []time.Duration
		for i := 1; i <= n; i++ {
			part, err := Shard(p, i, n)
			if err != nil {
				t.Fatal(err)
			}
			if part.Shard.Index != i || part.Shard.Count != n || part.Shard.PlanSHA256 != p.SHA256() || !cmp.Equal(part.Shard.PlannedRuns, keys(p)) {
				t.Fatalf("part %d/%d records %+v", i, n, part.Shard)
			}
			var sum time.Duration
			for j, r := range part.Runs {
				seen[r.Key]++
				sum += r.Estimate
				if r.Index != j || j > 0 && r.Key < part.Runs[j-1].Key {
					t.Errorf("part %d/%d: run %d %s out of plan order or numbering", i, n, j, r.Key)
				}
			}
			if sum != part.Estimate {
				t.Errorf("part %d/%d: estimate %v, runs sum to %v", i, n, part.Estimate, sum)
			}
			loads = append(loads, sum)
		}
		for _, k := range keys(p) {
			if seen[k] != 1 {
				t.Errorf("%d parts: run %s is in %d parts, want 1", n, k, seen[k])
			}
		}
		if spread := slices.Max(loads) - slices.Min(loads); spread > 9*time.Second {
			t.Errorf("%d parts: loads %v spread more than the longest run", n, loads)
		}
	}
}

func TestShardIsDeterministicAndRefusesBadNumbers(t *testing.T) {
	p := estimated(5, 9, 1, 7)
	a, _ := Shard(p, 2, 3)
	b, _ := Shard(p, 2, 3)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the same shard twice differs:\n%s", diff)
	}
	if _, err := Shard(a, 1, 2); err == nil {
		t.Errorf("sharding a shard succeeds")
	}
	for _, s := range []string{"0/4", "5/4", "1/0", "2", "a/4", "1/b", ""} {
		if _, _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) succeeds", s)
		}
	}
	if i, n, err := ParseShard("4/4"); i != 4 || n != 4 || err != nil {
		t.Errorf(`ParseShard("4/4") = %d, %d, %v`, i, n, err)
	}
}
