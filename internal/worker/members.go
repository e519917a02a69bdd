package worker

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Member is one member of a benchmark group as its setup added it: its
// name and its body, bound to the state that setup made.
type Member struct {
	Name string
	Bind Bind
}

// RunGroup runs one fork of a benchmark group (JMH's @Group): setup,
// called once, makes the fork's one state and its members; member i of
// a.Run.Group runs on its Threads threads, every thread of every member
// in the same synchronized iterations. Each iteration reports all the
// threads combined, and each member's part in Iteration.Members.
func RunGroup(a *protocol.Assignment, setup func() []Member, clock Clock, rnd Rand, emit func(*protocol.Iteration) error) (*Output, error) {
	if len(a.Run.Group) == 0 {
		return nil, fmt.Errorf("benchmark %q is a group (benchspec.RegisterGroup), but its run gives no members' threads (Run.Group)", a.Run.Benchmark)
	}
	for _, m := range a.Run.Group {
		if m.Threads < 1 {
			return nil, fmt.Errorf("group %q: member %q on %d threads; a member runs on at least 1", a.Run.Benchmark, m.Name, m.Threads)
		}
	}
	members, err := callSetup(setup)
	if err != nil {
		return nil, fmt.Errorf("group %q: its setup: %w", a.Run.Benchmark, err)
	}
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.Name
	}
	if want := protocol.MemberNames(a.Run.Group); !slices.Equal(names, want) {
		return nil, fmt.Errorf("group %q: its setup added members [%s], but its run names [%s] (the suite binary and the plan disagree: list the suite again)", a.Run.Benchmark, strings.Join(names, ", "), strings.Join(want, ", "))
	}
	var binds []Bind
	sizes := make([]int, len(members))
	for i, m := range a.Run.Group {
		sizes[i] = m.Threads
		for range m.Threads {
			binds = append(binds, members[i].Bind)
		}
	}
	return runThreads(a, binds, sizes, clock, rnd, emit)
}

// callSetup runs a group's setup, the user's code, as runBody runs a
// body: a panic is the run's failure, with its stack, not the end of
// the process (in the forks: 0 host, of every run after it).
func callSetup(setup func() []Member) (members []Member, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return setup(), nil
}

// memberNames lists a run's members' names, in order.
