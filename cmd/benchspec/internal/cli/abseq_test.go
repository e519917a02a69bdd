package cli

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/spec"
)

// groupPairedPlan is a paired plan of a group rw (a writer, 3 readers)
// and a benchmark, 4 pairs each: A's runs, then B's.
func groupPairedPlan() *plan.Plan {
	s := spec.DefaultSettings()
	s.Forks, s.WarmupForks = 4, 0
	rw := plan.Run{Key: "rw/threads=write:1,read:3:thrpt", Benchmark: "rw", Mode: spec.ModeThroughput, Settings: s,
		Group: []protocol.Member{{Name: "write", Threads: 1}, {Name: "read", Threads: 3}}}
	rw.Settings.Threads = 4
	inc := plan.Run{Key: "inc:avgt", Benchmark: "inc", Mode: spec.ModeAverageTime, Settings: s}
	p := &plan.Plan{Runs: []plan.Run{rw, inc, rw, inc}}
	for i := range p.Runs {
		p.Runs[i].Index = i
	}
	return p
}

// TestPairedOrderGroup: a member's row pairs its forks as its group's.
func TestPairedOrderGroup(t *testing.T) {
	p := groupPairedPlan()
	got := pairedOrder(p, executor.Order{Kind: executor.OrderPaired, Seed: 7})
	group := got[p.Runs[0].Key]
	if len(group) != 8 {
		t.Fatalf("group's order %v, want its 8 measured forks", group)
	}
	for i := range p.Runs[0].Group {
		key := p.Runs[0].MemberRun(i).Key
		if diff := cmp.Diff(group, got[key]); diff != "" {
			t.Errorf("%s (-group's +member's):\n%s", key, diff)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d keys, want the group's 3 rows and inc", len(got))
	}
}

// TestNextGroup: a group whose own row and writer's row are decided
// gets pairs while its readers' row is open; out of time, the open row
// stops at the budget and the decided ones keep their reason.
func TestNextGroup(t *testing.T) {
	p := groupPairedPlan()
	write, read := p.Runs[0].MemberRun(0).Key, p.Runs[0].MemberRun(1).Key
	res := &compare.Result{}
	for key, v := range map[string]compare.Verdict{p.Runs[0].Key: compare.Unchanged, write: compare.Improvement, read: compare.Inconclusive, "inc:avgt": compare.Unchanged} {
		pr := compare.Pair{Run: compare.Run{Key: key}, Verdict: v, ForksNeeded: 10}
		pr.Base.Forks = 4
		res.Pairs = append(res.Pairs, pr)
	}
	lim := abLimits{maxTime: time.Hour, maxPairs: 100}
	b := &abBatch{p: p, pairs: []int{4, 4, 4, 4}, stops: map[string]string{}}
	if got := b.next(res, lim, time.Millisecond, time.Hour); !cmp.Equal(got, []int{4, 0}) || b.open != 1 {
		t.Errorf("blocks %v, %d open rows; want [4 0] (10 needed, at most as many again as the 4 had), 1", got, b.open)
	}
	want := map[string]string{p.Runs[0].Key: compare.StopDecided, write: compare.StopDecided, "inc:avgt": compare.StopDecided}
	if diff := cmp.Diff(want, b.stops); diff != "" {
		t.Errorf("stops (-want +got):\n%s", diff)
	}
	if got := b.next(res, lim, time.Second, time.Second); !cmp.Equal(got, []int{0, 0}) || b.stops[read] != compare.StopBudget || b.open != 0 {
		t.Errorf("out of time: blocks %v, readers' stop %q, %d open; want none, %q, 0", got, b.stops[read], b.open, compare.StopBudget)
	}
}

// TestNextGroupReopensARowItsGroupMoved: a member's row decided at one
// look still gets pairs while its group's other rows are open; at a
// later look whose interval no longer decides it, it is open again
// rather than reported "decided" and inconclusive at once.
func TestNextGroupReopensARowItsGroupMoved(t *testing.T) {
	p := groupPairedPlan()
	write, read := p.Runs[0].MemberRun(0).Key, p.Runs[0].MemberRun(1).Key
	look := func(pairs int, verdicts map[string]compare.Verdict) *compare.Result {
		res := &compare.Result{}
		for key, v := range verdicts {
			pr := compare.Pair{Run: compare.Run{Key: key}, Verdict: v, ForksNeeded: 20}
			pr.Base.Forks = pairs
			res.Pairs = append(res.Pairs, pr)
		}
		return res
	}
	lim := abLimits{maxTime: time.Hour, maxPairs: 100}
	b := &abBatch{p: p, pairs: []int{4, 4, 4, 4}, stops: map[string]string{}}
	b.next(look(4, map[string]compare.Verdict{p.Runs[0].Key: compare.Inconclusive, write: compare.Improvement, read: compare.Inconclusive, "inc:avgt": compare.Unchanged}), lim, time.Millisecond, time.Hour)
	if b.stops[write] != compare.StopDecided {
		t.Fatalf("the writer's row decided at the first look: stop %q", b.stops[write])
	}
	b.pairs[0], b.pairs[2] = 8, 8
	got := b.next(look(8, map[string]compare.Verdict{p.Runs[0].Key: compare.Inconclusive, write: compare.Inconclusive, read: compare.Inconclusive, "inc:avgt": compare.Unchanged}), lim, time.Millisecond, time.Hour)
	if got[0] == 0 || b.stops[write] != "" || b.open != 3 {
		t.Errorf("blocks %v, the writer's stop %q, %d open rows; want pairs for the group, no stop, 3 open", got, b.stops[write], b.open)
	}
}
