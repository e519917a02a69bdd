package executor

import (
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// groupRun is a plan's run of a group of a writer and three readers.
func groupRun(mode spec.Mode) *plan.Run {
	s := spec.DefaultSettings()
	s.Forks, s.WarmupForks, s.Threads, s.OpsPerInvocation = 1, 0, 4, 1
	s.Warmup = protocol.Phase{}
	s.Measurement = protocol.Phase{Iterations: 2, Time: 2 * time.Millisecond, BatchSize: 1}
	return &plan.Run{Key: "rw:" + string(mode), Benchmark: "rw", Mode: mode, Settings: s,
		Group: []protocol.Member{{Name: "write", Threads: 1}, {Name: "read", Threads: 3}}}
}

// groupFork runs a real fork of the group in this process.
func groupFork(t *testing.T, r *plan.Run) protocol.ForkResult {
	t.Helper()
	setup := func() []worker.Member {
		var mu sync.RWMutex
		member := func(f func()) worker.Bind {
			return func() (*worker.B, func()) {
				b := new(worker.B)
				return b, func() {
					for b.Loop() {
						f()
					}
				}
			}
		}
		return []worker.Member{{Name: "write", Bind: member(func() { mu.Lock(); mu.Unlock() })}, {Name: "read", Bind: member(func() { mu.RLock(); mu.RUnlock() })}}
	}
	f := protocol.ForkResult{Run: r.Index, Fork: 1}
	_, err := worker.RunGroup(&protocol.Assignment{Run: r.Fork()}, setup, worker.SystemClock(), worker.SystemRand(), func(it *protocol.Iteration) error {
		f.Iterations = append(f.Iterations, *it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestGroupForksAreChecked: a group fork's iterations pass the parent's
// check in every mode, with their members' parts; a part missing, one too
// many, or not adding up to the group is refused, naming the run and
// what was expected. The journal's check (CheckFork) is the same.
func TestGroupForksAreChecked(t *testing.T) {
	for _, mode := range []spec.Mode{spec.ModeThroughput, spec.ModeAverageTime, spec.ModeSampleTime, spec.ModeSingleShot} {
		r := groupRun(mode)
		f := groupFork(t, r)
		if err := CheckFork(r, &f); err != nil {
			t.Errorf("%s: a real group fork refused: %v", mode, err)
		}
	}
	r := groupRun(spec.ModeThroughput)
	good := groupFork(t, r)
	plain := *r
	plain.Group = nil
	for name, tc := range map[string]struct {
		run    *plan.Run
		mutate func(it *protocol.Iteration)
		want   string
	}{
		"a part missing": {r, func(it *protocol.Iteration) { it.Members = it.Members[:1] },
			"fork 1 of rw:thrpt: measurement iteration 1: 1 members' parts, where the run has 2 members (write, read)"},
		"parts of no group": {&plain, func(it *protocol.Iteration) {},
			"measurement iteration 1: 2 members' parts, where the run has 0 members (it is not a group)"},
		"a part's ops not a number": {r, func(it *protocol.Iteration) { it.Members[1].Ops = math.NaN() },
			`member "read": non-finite result`},
		"a part's time negative": {r, func(it *protocol.Iteration) { it.Members[0].TimeNs = -1 },
			`member "write": negative result`},
		"a part with windows": {r, func(it *protocol.Iteration) { it.Members[0].Windows = [][2]int64{{1, 2}} },
			`member "write": its part has windows`},
		"parts not adding up": {r, func(it *protocol.Iteration) { it.TimeNs *= 2 },
			"ops/ns, where its members' parts make"},
		"a thread's window missing": {r, func(it *protocol.Iteration) { it.Windows = it.Windows[1:] },
			"3 threads' windows, where the group runs 4 threads"},
		"a part's ops not its invocations'": {r, func(it *protocol.Iteration) { it.Members[1].Ops++ },
			`member "read": `},
	} {
		f := good
		f.Iterations = append([]protocol.Iteration(nil), good.Iterations...)
		it := &f.Iterations[0]
		it.Members = append([]protocol.Iteration(nil), it.Members...)
		tc.mutate(it)
		err := CheckFork(tc.run, &f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, tc.want)
		}
	}
}
