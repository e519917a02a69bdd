#!/bin/sh
# The parent's side of a minimal fork, as a timeline: N forks of
# selfbench's fork.Minimal through executor.Execute (guard on, as
# selfbench runs them), each event in ms after Observer.ForkStart, median
# (step from the previous median) [min – max]:
#
#   mkdir      the fork's scratch directory taken (made ahead: ~0)
#   pipes      environment and pipes ready, just before cmd.Start
#   cmdStart   cmd.Start returned (clone, the child's exec done)
#   started / watched   the guard told
#   child.main / child.body / child.loopend   the fork's own timestamps
#   hello / done        the messages received by the parent
#   exited     the fork's exit seen (pidfd), reaped
#   reaped     its group and escapees checked (onlyKnownChildren)
#   wall       fr.Wall computed
#
# then the parent's CPU time, page faults and context switches per fork,
# and the floors: exec.Command(...).Run() of a Go hello world and of the
# selfbench binary as a bare process (SELFBENCH_CHILD=noop).
#
# The instrumentation is not in the executor: this script copies HEAD
# (git archive) to a temporary directory, inserts timestamp calls at
# fixed places of executor/fork.go and executor/process.go (it stops if
# one is gone), and builds a driver there. Timings mean something only
# on a quiet machine: the load average is printed before and after.
#
#   tools/scripts/fork-timeline.sh [forks]     # default 30
#
# Needs python3 (the insertion) and a Go toolchain.
set -eu
n=${1:-30}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$repo" archive HEAD | tar -x -C "$tmp"
mkdir -p "$tmp/zz_timeline" "$tmp/zz_hello"
cat >"$tmp/executor/zz_trace.go" <<'EOF'
package executor

import (
	"sync"
	"time"
)

// Inserted by tools/scripts/fork-timeline.sh.
var (
	TraceMu     sync.Mutex
	TraceEvents []TraceEvent
	TraceOn     bool
)

type TraceEvent struct {
	Name string
	At   int64
}

func tr(name string) {
	if TraceOn {
		t := time.Now().UnixNano()
		TraceMu.Lock()
		TraceEvents = append(TraceEvents, TraceEvent{name, t})
		TraceMu.Unlock()
	}
}
EOF
python3 - "$tmp" <<'EOF'
# Inserts the timeline events (tr calls).
import sys
root = sys.argv[1]
def sub(path, pairs):
    s = open(path).read()
    for old, new in pairs:
        if old not in s:
            sys.exit("fork-timeline.sh: %s changed, no place for the event %r" % (path, new))
        s = s.replace(old, new, 1)
    open(path, 'w').write(s)
sub(root + '/executor/fork.go', [
 ('\tfr := protocol.ForkResult{Run: a.Run.Index, Fork: a.Fork, Warmup: a.Warmup, ExitStatus: -1}\n',
  '\ttr("runFork")\n\tfr := protocol.ForkResult{Run: a.Run.Index, Fork: a.Fork, Warmup: a.Warmup, ExitStatus: -1}\n'),
 ('\tstart := time.Now()\n\tp, err := startProcess', '\ttr("mkdir")\n\tstart := time.Now()\n\tp, err := startProcess'),
 ('\tg.watch(p.pid)\n\tdefer g.forget(p.pid)\n', '\ttr("started")\n\tg.watch(p.pid)\n\tdefer g.forget(p.pid)\n\ttr("watched")\n'),
 ('\tkilledLate := p.finish()\n', '\ttr("collected")\n\tkilledLate := p.finish()\n\ttr("finished")\n'),
 ('\tfr.Wall = time.Since(start)\n', '\tfr.Wall = time.Since(start)\n\ttr("wall")\n'),
 ('\t\t\tcase protocol.MsgHello:\n', '\t\t\tcase protocol.MsgHello:\n\t\t\t\ttr("hello")\n'),
 ('\t\t\tcase protocol.MsgDone:\n', '\t\t\tcase protocol.MsgDone:\n\t\t\t\ttr("done")\n'),
])
sub(root + '/executor/process.go', [
 ('\twaited, err := child.StartLocked(cmd)\n', '\ttr("pipes")\n\twaited, err := child.StartLocked(cmd)\n\ttr("cmdStart")\n'),
 ('\t\tp.werr = <-waited\n', '\t\tp.werr = <-waited\n\t\ttr("exited")\n'),
 ('\t\tkilledLate = true\n\t}\n\tp.reap()\n', '\t\tkilledLate = true\n\t}\n\ttr("finish.exited")\n\tp.reap()\n\ttr("reaped")\n'),
])
EOF
cat >"$tmp/zz_timeline/main.go" <<'EOF'
// The driver of tools/scripts/fork-timeline.sh: the parent's per-fork timeline on
// the selfbench binary's fork.Minimal, and the floors.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

type obs struct{ start []int64 }

func (o *obs) RunStart(*plan.Run) {}
func (o *obs) ForkStart(_ *plan.Run, fork, _ int, _ bool, _, _ int) {
	o.start = append(o.start, time.Now().UnixNano())
}
func (o *obs) Iteration(*plan.Run, int, *protocol.Iteration) {}
func (o *obs) ForkEnd(*plan.Run, *protocol.ForkResult)       {}
func (o *obs) RunEnd(*plan.Run, []protocol.ForkResult)       {}

func med(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func main() {
	exe := flag.String("exe", "/tmp/sb-parent", "selfbench binary")
	n := flag.Int("n", 30, "forks")
	hello := flag.String("hello", "", "hello binary for the floor")
	floors := flag.Bool("floors", true, "time bare processes too")
	flag.Parse()
	s := spec.DefaultSettings()
	s.Forks = *n
	s.Warmup.Iterations = 0
	s.Measurement = spec.Iterations{Iterations: 1, Time: time.Millisecond, BatchSize: 1}
	p := &plan.Plan{Suite: "selfbench", Runs: []plan.Run{{Key: "fork.Minimal:avgt", Benchmark: "fork.Minimal", Mode: spec.ModeAverageTime, Settings: s}}}
	o := &obs{}
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	executor.TraceOn = true
	forks, err := executor.Execute(context.Background(), p, executor.Options{Executable: *exe, Observer: o, Guard: true})
	executor.TraceOn = false
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := func(r syscall.Rusage) float64 { return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e6 }
	defer fmt.Printf("parent CPU per fork %.3f ms, page faults per fork %.1f, voluntary context switches per fork %.1f, involuntary %.1f\n", (cpu(ru1)-cpu(ru0))/float64(*n), float64(ru1.Minflt-ru0.Minflt)/float64(*n),
		float64(ru1.Nvcsw-ru0.Nvcsw)/float64(*n), float64(ru1.Nivcsw-ru0.Nivcsw)/float64(*n))
	if err != nil {
		panic(err)
	}
	// Split events per fork at "runFork".
	var per [][]executor.TraceEvent
	for _, e := range executor.TraceEvents {
		if e.Name == "runFork" {
			per = append(per, nil)
		}
		if len(per) > 0 {
			per[len(per)-1] = append(per[len(per)-1], e)
		}
	}
	var names []string
	rel := map[string][]float64{}
	add := func(name string, v float64) {
		if _, ok := rel[name]; !ok {
			names = append(names, name)
		}
		rel[name] = append(rel[name], v)
	}
	var walls []float64
	for i, f := range forks {
		if f.Failed() {
			panic(f.Err + "\n" + f.StderrTail)
		}
		t0 := o.start[i]
		ms := func(t int64) float64 { return float64(t-t0) / 1e6 }
		for _, e := range per[i] {
			add(e.Name, ms(e.At))
		}
		add("child.main", ms(int64(f.Metrics["main_unix_ns"])))
		add("child.body", ms(int64(f.Metrics["body_unix_ns"])))
		add("child.loopend", ms(int64(f.Metrics["loop_end_unix_ns"])))
		walls = append(walls, float64(f.Wall)/1e6)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		ma, mb := med(rel[a]), med(rel[b])
		switch {
		case ma < mb:
			return -1
		case ma > mb:
			return 1
		}
		return 0
	})
	fmt.Printf("%d forks of fork.Minimal through executor.Execute (Guard: true); ms after Observer.ForkStart: median (step from the previous median) [min – max]\n", len(forks))
	prev := 0.0
	for _, nm := range names {
		m := med(rel[nm])
		fmt.Printf("  %-16s %7.3f  (+%6.3f)  [%7.3f – %7.3f]\n", nm, m, m-prev, slices.Min(rel[nm]), slices.Max(rel[nm]))
		prev = m
	}
	fmt.Printf("  fr.Wall          %7.3f  [%7.3f – %7.3f]\n", med(walls), slices.Min(walls), slices.Max(walls))
	if !*floors {
		return
	}
	bare := func(path string, env ...string) []float64 {
		var out []float64
		for range *n {
			cmd := exec.Command(path)
			cmd.Env = append(os.Environ(), env...)
			t := time.Now()
			if err := cmd.Run(); err != nil {
				panic(err)
			}
			out = append(out, float64(time.Since(t))/1e6)
		}
		return out
	}
	if *hello != "" {
		h := bare(*hello)
		fmt.Printf("floor: exec.Command(hello).Run():              median %.3f ms [%.3f – %.3f]\n", med(h), slices.Min(h), slices.Max(h))
	}
	b := bare(*exe, "SELFBENCH_CHILD=noop")
	fmt.Printf("floor: exec.Command(sb, SELFBENCH_CHILD=noop).Run(): median %.3f ms [%.3f – %.3f]\n", med(b), slices.Min(b), slices.Max(b))
}
EOF
cat >"$tmp/zz_hello/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello") }
EOF
cd "$tmp"
go build -o "$tmp/selfbench" ./tools/selfbench
go build -o "$tmp/hello" ./zz_hello
go build -o "$tmp/timeline" ./zz_timeline
echo "$(date -u '+%F %T UTC'), $(lscpu | sed -n 's/^Model name: *//p'), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/timeline" -exe "$tmp/selfbench" -n "$n" -hello "$tmp/hello"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
