package worker

import (
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// rwGroup is a group of a writer and readers of one sync.RWMutex: each
// setup call makes a new lock; it counts the setups, each member's
// invocations and the thread numbers each member's Bs had. The first
// invocation of each iteration waits until all threads (when threads is
// set) are inside their loops for it: threads run one after the other
// would wait for good (the wait gives up after a generous 10 s and fails
// the run), and on a machine with fewer cores than threads a thread
// released late by the scheduler cannot end its window before the
// others have begun theirs.
type rwGroup struct {
	nthreads int64
	arrived  atomic.Int64
	setups   atomic.Int64
	ops      [2]atomic.Int64 // write, read
	mu       sync.Mutex
	threads  [2]map[int]bool
}

func (g *rwGroup) setup() []Member {
	g.setups.Add(1)
	var lock sync.RWMutex
	shared := 0
	member := func(i int, f func()) Func {
		return func(b *B) {
			g.mu.Lock()
			if g.threads[i] == nil {
				g.threads[i] = map[int]bool{}
			}
			g.threads[i][b.Thread()] = true
			g.mu.Unlock()
			var iter int64
			first := false
			b.SetupIteration(func() { iter++; first = true })
			for b.Loop() {
				if first && g.nthreads > 0 {
					first = false
					g.arrived.Add(1)
					for deadline := time.Now().Add(10 * time.Second); g.arrived.Load() < iter*g.nthreads; runtime.Gosched() {
						if time.Now().After(deadline) {
							b.Fatalf("member %d thread %d waited 10 s in iteration %d: the group's threads do not run at once", i, b.Thread(), iter)
						}
					}
				}
				f()
				g.ops[i].Add(1)
			}
		}
	}
	return []Member{
		{"write", member(0, func() { lock.Lock(); shared++; lock.Unlock() }).bind()},
		{"read", member(1, func() { lock.RLock(); _ = shared; lock.RUnlock() }).bind()},
	}
}

func groupAssignment(mode protocol.Mode, members ...protocol.Member) *protocol.Assignment {
	a := assignment(mode, protocol.Phase{}, protocol.Phase{Iterations: 3, Time: 20 * time.Millisecond, BatchSize: 1}, 1)
	a.Run.Benchmark = "rw"
	a.Run.Group = members
	return a
}

// TestGroupRunsItsMembersTogether: a writer and three readers of one lock
// run in synchronized iterations on one state; each iteration reports
// the group and each member's part, as JMH aggregates a @Group.
func TestGroupRunsItsMembersTogether(t *testing.T) {
	for _, mode := range []protocol.Mode{protocol.ModeThroughput, protocol.ModeAverageTime} {
		g := &rwGroup{nthreads: 4}
		var its []protocol.Iteration
		a := groupAssignment(mode, protocol.Member{Name: "write", Threads: 1}, protocol.Member{Name: "read", Threads: 3})
		_, err := RunGroup(a, g.setup, SystemClock(), SystemRand(), func(it *protocol.Iteration) error {
			its = append(its, *it)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if n := g.setups.Load(); n != 1 {
			t.Errorf("%s: setup ran %d times in one fork, want once (one state per fork)", mode, n)
		}
		if diff := cmp.Diff([2]map[int]bool{{0: true}, {0: true, 1: true, 2: true}}, g.threads); diff != "" {
			t.Errorf("%s: B.Thread per member (-want +got):\n%s", mode, diff)
		}
		if len(its) != 3 {
			t.Fatalf("%s: %d iterations, want 3", mode, len(its))
		}
		var inv [2]uint64
		for i, it := range its {
			if len(it.Windows) != 4 || len(it.Members) != 2 {
				t.Fatalf("%s: iteration %d has %d windows and %d members, want 4 and 2", mode, it.Index, len(it.Windows), len(it.Members))
			}
			// Synchronized: every thread's window starts before any ends.
			lastStart, firstEnd := int64(math.MinInt64), int64(math.MaxInt64)
			for _, w := range it.Windows {
				lastStart, firstEnd = max(lastStart, w[0]), min(firstEnd, w[1])
			}
			if lastStart >= firstEnd {
				t.Errorf("%s: iteration %d: a thread started at %d, after another ended at %d", mode, it.Index, lastStart, firstEnd)
			}
			// No thread starts an iteration before all ended the last.
			if i > 0 {
				lastEnd := int64(0)
				for _, w := range its[i-1].Windows {
					lastEnd = max(lastEnd, w[1])
				}
				for _, w := range it.Windows {
					if w[0] < lastEnd {
						t.Errorf("%s: iteration %d: a thread started at %d, before iteration %d ended at %d", mode, it.Index, w[0], i, lastEnd)
					}
				}
			}
			w, r := it.Members[0], it.Members[1]
			if w.Windows != nil || r.Windows != nil || w.Members != nil || w.Phase != it.Phase || w.Index != it.Index {
				t.Errorf("%s: a member's part %+v carries windows or members, or another iteration's place", mode, w)
			}
			if w.Invocations+r.Invocations != it.Invocations || w.Ops+r.Ops != it.Ops {
				t.Errorf("%s: members' invocations %d+%d and ops %v+%v do not add up to the group's %d and %v", mode, w.Invocations, r.Invocations, w.Ops, r.Ops, it.Invocations, it.Ops)
			}
			if mode.IsRate() {
				sum := w.Ops/w.TimeNs + r.Ops/r.TimeNs
				if got := it.Ops / it.TimeNs; math.Abs(got-sum) > 0.01*sum {
					t.Errorf("thrpt: group %v ops/ns, members' sum %v", got, sum)
				}
			} else {
				// JMH averages the threads' times per op: the writer's
				// one thread and the readers' three.
				want := (w.TimeNs/w.Ops + 3*r.TimeNs/r.Ops) / 4
				if got := it.TimeNs / it.Ops; math.Abs(got-want) > 1e-9*want {
					t.Errorf("avgt: group %v ns/op, want the threads' mean %v", got, want)
				}
			}
			inv[0] += w.Invocations
			inv[1] += r.Invocations
		}
		// Each member's part is its own threads': every invocation of
		// the writer's body, and of the readers', is counted in it.
		if got := [2]int64{int64(inv[0]), int64(inv[1])}; got != [2]int64{g.ops[0].Load(), g.ops[1].Load()} {
			t.Errorf("%s: members' invocations %v, their bodies ran %d and %d times", mode, got, g.ops[0].Load(), g.ops[1].Load())
		}
	}
}

// TestCombineGroup: JMH's thread aggregators, for the group (all
// threads) and each member (its threads).
func TestCombineGroup(t *testing.T) {
	parts := []protocol.Iteration{
		{Ops: 100, TimeNs: 1000, Invocations: 100, Windows: [][2]int64{{0, 1000}}},   // write: 0.1 ops/ns, 10 ns/op
		{Ops: 400, TimeNs: 2000, Invocations: 400, Windows: [][2]int64{{0, 2000}}},   // read: 0.2 ops/ns, 5 ns/op
		{Ops: 1000, TimeNs: 2000, Invocations: 1000, Windows: [][2]int64{{0, 2000}}}, // read: 0.5 ops/ns, 2 ns/op
	}
	sizes := []int{1, 2}
	thrpt := combineGroup(protocol.ModeThroughput, parts, sizes)
	rates := []float64{thrpt.Ops / thrpt.TimeNs, thrpt.Members[0].Ops / thrpt.Members[0].TimeNs, thrpt.Members[1].Ops / thrpt.Members[1].TimeNs}
	if !approx(rates, []float64{0.8, 0.1, 0.7}) {
		t.Errorf("thrpt group, write, read = %v ops/ns, want the sums of the threads' rates 0.8, 0.1, 0.7", rates)
	}
	avgt := combineGroup(protocol.ModeAverageTime, parts, sizes)
	times := []float64{avgt.TimeNs / avgt.Ops, avgt.Members[0].TimeNs / avgt.Members[0].Ops, avgt.Members[1].TimeNs / avgt.Members[1].Ops}
	if !approx(times, []float64{17.0 / 3, 10, 3.5}) {
		t.Errorf("avgt group, write, read = %v ns/op, want the means of the threads' times per op 5.67, 10, 3.5", times)
	}
	if thrpt.Ops != 1500 || thrpt.Invocations != 1500 || len(thrpt.Windows) != 3 || thrpt.Members[1].Ops != 1400 || thrpt.Members[1].Windows != nil {
		t.Errorf("combined ops, invocations or windows wrong: %+v", thrpt)
	}
	// ss: every thread does the same ops; sample: the samples joined.
	ss := combineGroup(protocol.ModeSingleShot, []protocol.Iteration{{Ops: 1, TimeNs: 10}, {Ops: 1, TimeNs: 30}}, []int{1, 1})
	if ss.TimeNs/ss.Ops != 20 || ss.Members[1].TimeNs != 30 {
		t.Errorf("ss group %v ns/op (want 20), read %v ns (want 30)", ss.TimeNs/ss.Ops, ss.Members[1].TimeNs)
	}
	h := func(vs ...float64) *hist.Snapshot {
		var x hist.Histogram
		for _, v := range vs {
			x.Record(v)
		}
		s := x.Snapshot()
		return &s
	}
	sample := combineGroup(protocol.ModeSampleTime, []protocol.Iteration{
		{Ops: 2, TimeNs: 30, Histogram: h(10, 20)}, {Ops: 1, TimeNs: 40, Histogram: h(40)}, {Ops: 1, TimeNs: 50, Histogram: h(50)},
	}, []int{1, 2})
	if sample.Histogram.Count != 4 || sample.Members[1].Histogram.Count != 2 || sample.Members[0].Histogram.Count != 2 || sample.TimeNs != 120 {
		t.Errorf("sample: group %d samples in %v ns (want 4 in 120), members %d and %d (want 2 and 2)", sample.Histogram.Count, sample.TimeNs, sample.Members[0].Histogram.Count, sample.Members[1].Histogram.Count)
	}
}

func approx(got, want []float64) bool {
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12*want[i] {
			return false
		}
	}
	return len(got) == len(want)
}

// TestGroupMismatchFails: a run and a body that disagree on being a
// group, or on its members, fail the fork before any body runs.
func TestGroupMismatchFails(t *testing.T) {
	g := &rwGroup{}
	noop := func(*protocol.Iteration) error { return nil }
	for name, tc := range map[string]struct {
		body Body
		a    *protocol.Assignment
		want string
	}{
		"members renamed": {Body{Members: g.setup}, groupAssignment(protocol.ModeThroughput, protocol.Member{Name: "write", Threads: 1}, protocol.Member{Name: "scan", Threads: 1}),
			`group "rw": its setup added members [write, read], but its run names [write, scan]`},
		"members reordered": {Body{Members: g.setup}, groupAssignment(protocol.ModeThroughput, protocol.Member{Name: "read", Threads: 1}, protocol.Member{Name: "write", Threads: 1}),
			`its setup added members [write, read], but its run names [read, write]`},
		"no threads": {Body{Members: g.setup}, groupAssignment(protocol.ModeThroughput, protocol.Member{Name: "write", Threads: 0}, protocol.Member{Name: "read", Threads: 1}),
			`member "write" on 0 threads`},
		"group without members": {Body{Members: g.setup}, groupAssignment(protocol.ModeThroughput),
			`benchmark "rw" is a group (benchspec.RegisterGroup), but its run gives no members' threads`},
		"not a group": {Body{Bind: Func(func(b *B) {}).bind()}, groupAssignment(protocol.ModeThroughput, protocol.Member{Name: "write", Threads: 1}),
			`benchmark "rw" is not a group (benchspec.RegisterGroup), but its run gives members' threads ([write])`},
	} {
		_, err := tc.body.Run(tc.a, SystemClock(), SystemRand(), noop)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, tc.want)
		}
	}
	if n := g.ops[0].Load() + g.ops[1].Load(); n != 0 {
		t.Errorf("bodies ran %d times in forks that must fail first", n)
	}
}
