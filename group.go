package benchspec

import (
	"fmt"
	"slices"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
)

// Group is the handle a group's setup adds its members with
// (RegisterGroup). It is valid only while setup runs.
type Group struct {
	name    string
	members []worker.Member
	done    bool
}

// RegisterGroup adds a benchmark group under name (JMH's @Group): members
// of different code that run at once on one shared state, such as a
// writer and readers of one lock. setup makes the state and adds each
// member with g.Add, whose body closes over it:
//
//	benchspec.RegisterGroup("rw", func(g *benchspec.Group) {
//		var mu sync.RWMutex
//		g.Add("write", func(b *benchspec.B) { for b.Loop() { mu.Lock(); mu.Unlock() } })
//		g.Add("read", func(b *benchspec.B) { for b.Loop() { mu.RLock(); mu.RUnlock() } })
//	})
//
// setup runs once per fork (one state per fork, JMH's Scope.Group), and
// once when the benchspec program lists the suite, where it must only
// add members (no body runs there). A spec's group_threads gives each
// member its threads; every thread of every member starts and stops each
// iteration together, and the report has a row for the group ("rw") and
// one per member ("rw:write"). Params apply to every member (b.Param).
// Names follow Register's rules; a nil setup, or a setup that adds no
// member, misuses Add or adds a member twice, panics.
func RegisterGroup(name string, setup func(g *Group), opts ...Option) {
	if setup == nil {
		panic(fmt.Sprintf("benchspec.RegisterGroup(%q): nil setup function", name))
	}
	register("RegisterGroup", name, worker.Body{Members: groupSetup(name, setup)}, opts)
}

// groupSetup is how a fork (and the listing) runs a group's setup: each
// call makes a new state and returns the members bound to it.
func groupSetup(name string, setup func(g *Group)) func() []worker.Member {
	return func() []worker.Member {
		g := &Group{name: name}
		setup(g)
		g.done = true
		if len(g.members) == 0 {
			panic(fmt.Sprintf("benchspec.RegisterGroup(%q): setup added no member; add each with g.Add", name))
		}
		return g.members
	}
}

// Add adds a member to the group: body runs on each of the member's
// threads, each with its own B (b.Thread counts within the member).
// Member names follow Register's rules and are unique in the group; Add
// after setup has returned, or with a nil body, panics.
func (g *Group) Add(member string, body func(*B)) {
	switch {
	case g.done:
		panic(fmt.Sprintf("benchspec.Group.Add(%q) on group %q after its setup returned: add every member inside setup", member, g.name))
	case body == nil:
		panic(fmt.Sprintf("benchspec.Group.Add(%q) on group %q: nil body", member, g.name))
	case !validName(member):
		panic(fmt.Sprintf("benchspec.Group.Add: invalid member name %q in group %q: use letters, digits and _ . / -", member, g.name))
	case slices.ContainsFunc(g.members, func(m worker.Member) bool { return m.Name == member }):
		panic(fmt.Sprintf("benchspec.Group.Add: member %q added twice to group %q", member, g.name))
	case len(g.members) == protocol.MaxMembers:
		panic(fmt.Sprintf("benchspec.Group.Add(%q): group %q has %d members already, the most a group may have", member, g.name, protocol.MaxMembers))
	}
	g.members = append(g.members, worker.Member{Name: member, Bind: bind(body)})
}
