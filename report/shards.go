package report

import (
	"fmt"
	"slices"
	"strings"
)

// A merge of shards proves its completeness. Every part of a sharded
// plan records the plan's SHA-256 and the keys of all its runs (Shard),
// so Merge can tell, from the parts alone:
//
//   - that they are parts of one plan, split alike: the same plan_sha256
//     and count, or Merge refuses them (*ShardError);
//   - that none is missing and no planned run is lacking, or Merge fails
//     naming the missing parts and runs (*IncompleteError);
//   - that no part holds a run the plan does not have (*ShardError).
//
// A group's plan run is its group's row and its members' rows in a
// report (Run.PlanKey), which Build writes together.
//
// Whole reports and parts do not mix in one merge. The merged report of
// all parts is a whole report again: no Shard, its runs in plan order.

// ShardError is a merge of parts that do not belong together: parts of
// different plans or split differently, a part given twice, a part
// alongside a whole report, or a run the plan does not have.
type ShardError struct {
	Problems []string
}

// Error lists every problem, one per line.
func (e *ShardError) Error() string {
	return "report: cannot merge the shards: " + strings.Join(e.Problems, "\n")
}

// IncompleteError is a merge of the parts of one plan that lacks some:
// whole parts, or runs that a part did not get to (it was interrupted).
// Merge returns the merged report with it, marked incomplete, for a
// caller that accepts a partial result.
type IncompleteError struct {
	Count   int // the plan's number of parts
	Planned int // the plan's number of runs
	// MissingShards are the numbers of the parts no input holds.
	MissingShards []int
	// MissingRuns are the keys of the planned runs no input holds, in
	// plan order.
	MissingRuns []string
}

// Error names the missing parts and runs.
func (e *IncompleteError) Error() string {
	var parts []string
	for _, i := range e.MissingShards {
		parts = append(parts, fmt.Sprintf("%d/%d", i, e.Count))
	}
	msg := fmt.Sprintf("report: incomplete merge: %d of %d planned runs missing", len(e.MissingRuns), e.Planned)
	if len(parts) > 0 {
		msg += fmt.Sprintf(" (shard %s not given)", strings.Join(parts, ", "))
	}
	return msg + ": " + strings.Join(e.MissingRuns, ", ")
}

// checkShards checks that the inputs are either whole reports or parts
// of one plan split alike, each given once, holding only planned runs.
// For parts it returns the plan's keys and, when parts or runs are
// missing, an *IncompleteError.
func checkShards(inputs []Named) (planned []string, incomplete *IncompleteError, err error) {
	var first *Named
	var problems []string
	byIndex := map[int]string{}
	for i := range inputs {
		in := &inputs[i]
		s := in.Report.Shard
		switch {
		case s == nil && first == nil:
			continue
		case s == nil:
			problems = append(problems, fmt.Sprintf("%s is a whole report, %s shard %d/%d of a plan: merge the shards of one plan, or whole reports", in.Name, first.Name, first.Report.Shard.Index, first.Report.Shard.Count))
			continue
		case first == nil:
			first = in
			for _, prev := range inputs[:i] {
				problems = append(problems, fmt.Sprintf("%s is a whole report, %s shard %d/%d of a plan: merge the shards of one plan, or whole reports", prev.Name, in.Name, s.Index, s.Count))
			}
		}
		f := first.Report.Shard
		switch {
		case s.PlanSHA256 != f.PlanSHA256:
			problems = append(problems, fmt.Sprintf("%s is a shard of another plan than %s (plan_sha256 %.12s…, not %.12s…): were the specs or the suite's benchmarks changed between the shards?", in.Name, first.Name, s.PlanSHA256, f.PlanSHA256))
			continue
		case s.Count != f.Count:
			problems = append(problems, fmt.Sprintf("%s is shard %d/%d, %s shard %d/%d: the shards of one merge must split the plan alike", in.Name, s.Index, s.Count, first.Name, f.Index, f.Count))
			continue
		}
		if prev, dup := byIndex[s.Index]; dup {
			problems = append(problems, fmt.Sprintf("shard %d/%d is given twice: %s and %s", s.Index, s.Count, prev, in.Name))
		}
		byIndex[s.Index] = in.Name
		for _, run := range in.Report.Runs {
			if !slices.Contains(f.PlannedRuns, run.PlanKey()) {
				problems = append(problems, fmt.Sprintf("%s holds run %q, which its plan does not have", in.Name, run.Key))
			}
		}
	}
	if len(problems) > 0 {
		return nil, nil, &ShardError{Problems: problems}
	}
	if first == nil {
		return nil, nil, nil
	}
	f := first.Report.Shard
	held := map[string]bool{}
	for _, in := range inputs {
		for _, run := range in.Report.Runs {
			held[run.Key] = true // a group's own row, not its members', holds its plan run
		}
	}
	e := &IncompleteError{Count: f.Count, Planned: len(f.PlannedRuns)}
	for i := 1; i <= f.Count; i++ {
		if _, ok := byIndex[i]; !ok {
			e.MissingShards = append(e.MissingShards, i)
		}
	}
	for _, k := range f.PlannedRuns {
		if !held[k] {
			e.MissingRuns = append(e.MissingRuns, k)
		}
	}
	if len(e.MissingShards) == 0 && len(e.MissingRuns) == 0 {
		e = nil
	}
	return f.PlannedRuns, e, nil
}

// inPlanOrder sorts runs by their place in planned, a group's members'
// rows after the group's (a part holds them in that order).
func inPlanOrder(runs []Run, planned []string) {
	at := make(map[string]int, len(planned))
	for i, k := range planned {
		at[k] = i
	}
	slices.SortStableFunc(runs, func(a, b Run) int { return at[a.PlanKey()] - at[b.PlanKey()] })
}

// sameOrder is the order all inputs ran in, or nil when they differ.
func sameOrder(inputs []Named) *Order {
	o := inputs[0].Report.Order
	for _, in := range inputs[1:] {
		p := in.Report.Order
		if (o == nil) != (p == nil) || o != nil && (o.Kind != p.Kind || (o.Seed == nil) != (p.Seed == nil) || o.Seed != nil && *o.Seed != *p.Seed) {
			return nil
		}
	}
	return o
}
