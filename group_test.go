package benchspec

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
)

// TestRegisterGroup: the listing names a group's members in declared
// order, running its setup once and no body; a fork runs setup once, its
// members' threads with their own numbering and the group's params.
func TestRegisterGroup(t *testing.T) {
	var setups, bodies atomic.Int64
	var mu sync.Mutex
	seen := map[string]bool{} // member/thread=param
	RegisterGroup("test.group.RW", func(g *Group) {
		setups.Add(1)
		var lock sync.RWMutex
		member := func(name string, f func()) func(*B) {
			return func(b *B) {
				mu.Lock()
				seen[name+"/"+string(rune('0'+b.Thread()))+"="+b.Param("n")] = true
				mu.Unlock()
				for b.Loop() {
					bodies.Add(1)
					f()
				}
			}
		}
		g.Add("write", member("write", func() { lock.Lock(); lock.Unlock() }))
		g.Add("read", member("read", func() { lock.RLock(); lock.RUnlock() }))
	}, Params{"n": {"1", "2"}})

	var listed *protocol.Registered
	for _, r := range registered() {
		if r.Name == "test.group.RW" {
			listed = &r
		}
	}
	want := &protocol.Registered{Name: "test.group.RW", Params: map[string][]string{"n": {"1", "2"}}, Members: []string{"write", "read"}}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Fatalf("listing (-want +got):\n%s", diff)
	}
	if setups.Load() != 1 || bodies.Load() != 0 {
		t.Fatalf("listing ran setup %d times and bodies %d times, want 1 and 0", setups.Load(), bodies.Load())
	}

	body, _ := lookup("test.group.RW")
	a := &protocol.Assignment{Run: protocol.Run{
		Benchmark: "test.group.RW", Mode: protocol.ModeAverageTime,
		Params:   []protocol.Param{{Name: "n", Value: "2"}},
		Settings: protocol.Settings{Measurement: protocol.Phase{Iterations: 2, Time: 5 * time.Millisecond, BatchSize: 1}, OpsPerInvocation: 1},
		Group:    []protocol.Member{{Name: "write", Threads: 1}, {Name: "read", Threads: 2}},
	}}
	var members []int
	_, err := body.Run(a, worker.SystemClock(), worker.SystemRand(), func(it *protocol.Iteration) error {
		members = append(members, len(it.Members))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if setups.Load() != 2 {
		t.Errorf("the fork ran setup %d times, want once", setups.Load()-1)
	}
	if diff := cmp.Diff([]int{2, 2}, members); diff != "" {
		t.Errorf("members per iteration (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"write/0=2": true, "read/0=2": true, "read/1=2": true}, seen); diff != "" {
		t.Errorf("member/thread=param seen (-want +got):\n%s", diff)
	}
}

// TestGroupMisusePanics: what Register panics for, and a setup that adds
// no member, a nil body, a member added twice or after setup returned.
func TestGroupMisusePanics(t *testing.T) {
	var kept *Group
	for name, tc := range map[string]struct {
		f    func()
		want string
	}{
		"nil setup":    {func() { RegisterGroup("test.group.nil", nil) }, "nil setup function"},
		"invalid name": {func() { RegisterGroup("a:b", func(*Group) {}) }, "invalid benchmark name"},
		"no member":    {func() { groupSetup("g", func(*Group) {})() }, "setup added no member"},
		"nil body":     {func() { groupSetup("g", func(g *Group) { g.Add("a", nil) })() }, `Add("a") on group "g": nil body`},
		"bad member":   {func() { groupSetup("g", func(g *Group) { g.Add("a:b", func(*B) {}) })() }, `invalid member name "a:b"`},
		"twice": {func() {
			groupSetup("g", func(g *Group) { g.Add("a", func(*B) {}); g.Add("a", func(*B) {}) })()
		}, `member "a" added twice`},
		"after setup": {func() {
			groupSetup("g", func(g *Group) { kept = g; g.Add("a", func(*B) {}) })()
			kept.Add("b", func(*B) {})
		}, "after its setup returned"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) {
					t.Errorf("%s: panic %v, want one containing %q", name, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}
