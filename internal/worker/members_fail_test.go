package worker

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
)

// TestGroupMemberFailureEndsTheFork: a member that fails, before its
// first Loop or in the middle of an iteration, ends the whole fork with
// its failure, while the other members' threads wait at the iteration
// barrier or run their loops: no thread is left waiting for it.
func TestGroupMemberFailureEndsTheFork(t *testing.T) {
	loop := func(b *B) {
		for b.Loop() {
		}
	}
	for name, tc := range map[string]struct {
		bad  Func
		want string
	}{
		"Fatalf before Loop": {func(b *B) { b.Fatalf("no connection") }, "no connection"},
		"panic before Loop":  {func(b *B) { panic("boom") }, "panic: boom"},
		"return before Loop": {func(b *B) {}, "returned before b.Loop() reported false"},
		"Goexit before Loop": {func(b *B) { runtime.Goexit() }, "runtime.Goexit"},
		"Fatalf in the 2nd iteration": {func(b *B) {
			n := 0
			b.SetupIteration(func() { n++ })
			for b.Loop() {
				if n == 2 {
					b.Fatalf("lost it")
				}
			}
		}, "lost it"},
		"break in the 2nd iteration": {func(b *B) {
			n := 0
			b.SetupIteration(func() { n++ })
			for b.Loop() {
				if n == 2 {
					break
				}
			}
		}, "returned before b.Loop() reported false"},
	} {
		for _, mode := range []protocol.Mode{protocol.ModeThroughput, protocol.ModeSingleShot} {
			setup := func() []Member {
				return []Member{{"good", Func(loop).bind()}, {"bad", tc.bad.bind()}}
			}
			a := groupAssignment(mode, protocol.Member{Name: "good", Threads: 3}, protocol.Member{Name: "bad", Threads: 1})
			done := make(chan error, 1)
			go func() {
				_, err := RunGroup(a, setup, SystemClock(), SystemRand(), func(*protocol.Iteration) error { return nil })
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s, %s: error %v, want one containing %q", name, mode, err, tc.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s, %s: the fork still runs 30 s after a member failed", name, mode)
			}
		}
	}
}

// TestGroupSetupPanicFailsTheRun: a group's setup that panics in a fork
// (a resource it cannot get) fails the run with the panic, as a body's
// panic does, rather than crashing the process: in the forks: 0 host,
// the crash lost the panic and ended the host under the runs after it.
func TestGroupSetupPanicFailsTheRun(t *testing.T) {
	setup := func() []Member { panic("cannot open the database") }
	a := groupAssignment(protocol.ModeThroughput, protocol.Member{Name: "a", Threads: 1})
	_, err := RunGroup(a, setup, SystemClock(), SystemRand(), func(*protocol.Iteration) error { return nil })
	var pe *PanicError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `group "rw": its setup: panic: cannot open the database`) || len(pe.Stack) == 0 {
		t.Errorf("error %v, want the setup's panic with its stack", err)
	}
}

// TestGroupMembersReportMetrics: every member's b.ReportMetric reaches
// the fork's metrics (its first thread's, as a plain run keeps thread
// 0's), not only the first member's: each member runs its own body.
func TestGroupMembersReportMetrics(t *testing.T) {
	member := func(unit string, v float64) Func {
		return func(b *B) {
			for b.Loop() {
			}
			b.ReportMetric(v, unit)
		}
	}
	setup := func() []Member {
		return []Member{{"write", member("writes/op", 1).bind()}, {"read", member("hits/op", 2).bind()}}
	}
	a := groupAssignment(protocol.ModeThroughput, protocol.Member{Name: "write", Threads: 1}, protocol.Member{Name: "read", Threads: 2})
	out, err := RunGroup(a, setup, SystemClock(), SystemRand(), func(*protocol.Iteration) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if out.Metrics["writes/op"] != 1 || out.Metrics["hits/op"] != 2 || len(out.Metrics) != 2 {
		t.Errorf("the fork's metrics %v, want writes/op 1 and hits/op 2", out.Metrics)
	}
}
