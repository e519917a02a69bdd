package executor_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/google/go-cmp/cmp"
)

// slotPlan has one run per fork count given; 0 is forks: 0 (one
// in-process fork).
func slotPlan(forks ...int) *plan.Plan {
	names := make([]string, len(forks))
	for i := range names {
		names[i] = fmt.Sprintf("b%d", i)
	}
	p := testPlan(1, names...)
	for i, n := range forks {
		p.Runs[i].Settings.Forks = n
	}
	return p
}

func slotStrings(slots []executor.Slot) []string {
	var out []string
	for _, s := range slots {
		out = append(out, fmt.Sprintf("%d/%d", s.Run, s.Fork))
	}
	return out
}

func TestSchedule(t *testing.T) {
	p := slotPlan(2, 3, 0)
	p.Runs[0].Settings.WarmupForks = 1 // run 0 has 3 forks, the first a warmup fork
	for _, tc := range []struct {
		order executor.Order
		want  []string
	}{
		{executor.Order{}, []string{"0/1", "0/2", "0/3", "1/1", "1/2", "1/3", "2/1"}},
		{executor.Order{Kind: executor.OrderDeclared}, []string{"0/1", "0/2", "0/3", "1/1", "1/2", "1/3", "2/1"}},
		{executor.Order{Kind: executor.OrderInterleaved}, []string{"0/1", "1/1", "2/1", "0/2", "1/2", "0/3", "1/3"}},
		// pinned: a recorded seed must give this order on every Go release
		{executor.Order{Kind: executor.OrderRandom, Seed: 7}, []string{"0/1", "1/1", "1/2", "2/1", "0/2", "1/3", "0/3"}},
	} {
		got := slotStrings(tc.order.Schedule(p))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.order, diff)
		}
	}
}

// A random order is a permutation of the forks that keeps each run's
// forks in their numbered order; the seed reproduces it and another seed
// gives another.
func TestScheduleRandom(t *testing.T) {
	p := slotPlan(3, 3, 3, 3, 3, 3)
	seven := executor.Order{Kind: executor.OrderRandom, Seed: 7}
	a, b := seven.Schedule(p), seven.Schedule(p)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("seed 7 twice differs (-first +second):\n%s", diff)
	}
	other := executor.Order{Kind: executor.OrderRandom, Seed: 8}.Schedule(p)
	if cmp.Equal(a, other) || cmp.Equal(a, executor.Order{}.Schedule(p)) {
		t.Errorf("seed 7 gives the same order as seed 8 or the declared order: %v", slotStrings(a))
	}
	next := map[int]int{}
	for _, s := range a {
		if next[s.Run]++; s.Fork != next[s.Run] {
			t.Fatalf("run %d: fork %d comes where fork %d should: %v", s.Run, s.Fork, next[s.Run], slotStrings(a))
		}
	}
	if len(a) != 18 {
		t.Errorf("%d slots, want 18", len(a))
	}
}

func TestParseOrder(t *testing.T) {
	if o, err := executor.ParseOrder("", 0); err != nil || o.Kind != executor.OrderDeclared {
		t.Errorf(`ParseOrder("") = %+v, %v; want declared`, o, err)
	}
	if _, err := executor.ParseOrder("shuffled", 0); err == nil || err.Error() != `unknown order "shuffled"; valid orders: declared, interleaved, random` {
		t.Errorf("ParseOrder(shuffled) error = %v", err)
	}
}

// events records the observer calls that frame runs and forks.
type events struct{ log []string }

func (e *events) RunStart(r *plan.Run) { e.log = append(e.log, fmt.Sprintf("start %d", r.Index)) }
func (e *events) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	e.log = append(e.log, fmt.Sprintf("fork %d/%d (%d of %d done)", r.Index, fork, done, all))
}
func (e *events) Iteration(*plan.Run, int, *protocol.Iteration) {}
func (e *events) ForkEnd(*plan.Run, *protocol.ForkResult)       {}
func (e *events) RunEnd(r *plan.Run, forks []protocol.ForkResult) {
	e.log = append(e.log, fmt.Sprintf("end %d (%d forks)", r.Index, len(forks)))
}

// Interleaved, a run starts before its first fork and ends after its
// last, or at its failure, whose remaining forks are skipped and leave
// the count; the results come back in plan order.
func TestExecuteInterleaved(t *testing.T) {
	p := testPlan(2, "empty", "fails", "empty")
	var ev events
	got, err := executor.Execute(context.Background(), p, executor.Options{
		Executable: os.Args[0],
		Observer:   &ev,
		Order:      executor.Order{Kind: executor.OrderInterleaved},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start 0", "fork 0/1 (0 of 6 done)",
		"start 1", "fork 1/1 (1 of 6 done)", "end 1 (1 forks)",
		"start 2", "fork 2/1 (2 of 5 done)",
		"fork 0/2 (3 of 5 done)", "end 0 (2 forks)",
		"fork 2/2 (4 of 5 done)", "end 2 (2 forks)",
	}
	if diff := cmp.Diff(want, ev.log); diff != "" {
		t.Errorf("observer calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0/1 false", "0/2 false", "1/1 true", "2/1 false", "2/2 false"}, forkIDs(got)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// TestSchedulePaired: each build's forks run in their numbered order,
// fork k of A next to fork k of B, in blocks A B B A or B A A B; over
// many blocks each build goes first in about half of them.
func TestSchedulePaired(t *testing.T) {
	p := slotPlan(10, 9, 10, 9) // runs 0, 1 are A's; 2, 3 B's
	slots := executor.Order{Kind: executor.OrderPaired, Seed: 7}.Schedule(p)
	if len(slots) != 38 {
		t.Fatalf("%d slots, want 38: %v", len(slots), slotStrings(slots))
	}
	next := map[int]int{}
	for i, s := range slots {
		next[s.Run]++
		if s.Fork != next[s.Run] {
			t.Fatalf("slot %d: run %d fork %d before fork %d: %v", i, s.Run, s.Fork, next[s.Run], slotStrings(slots))
		}
	}
	// Pairs: A's fork k and B's fork k are adjacent within a block.
	for i := 0; i+1 < len(slots); i += 2 {
		a, b := slots[i], slots[i+1]
		if a.Fork != b.Fork || (a.Run+2 != b.Run && b.Run+2 != a.Run) {
			t.Fatalf("slots %d, %d: %d/%d and %d/%d, want one fork of each build with one number: %v", i, i+1, a.Run, a.Fork, b.Run, b.Fork, slotStrings(slots))
		}
	}
	many := slotPlan(1000, 1000)
	slots = executor.Order{Kind: executor.OrderPaired, Seed: 1}.Schedule(many)
	aFirst := 0
	for i := 0; i < len(slots); i += 4 {
		if slots[i].Run == 0 {
			aFirst++
		}
	}
	if aFirst < 200 || aFirst > 300 {
		t.Errorf("A went first in %d of 250 blocks, want about half", aFirst)
	}
	if again := (executor.Order{Kind: executor.OrderPaired, Seed: 1}).Schedule(many); !cmp.Equal(again, slots) {
		t.Errorf("the same seed gave another order")
	}
}
