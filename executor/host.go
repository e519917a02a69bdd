package executor

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// host is the one process of the suite binary in which a batch's
// `forks: 0` runs run, one after the other (protocol.EnvHost): such runs
// share the process's heap, collector and caches with those before them,
// as JMH's forks: 0 runs share the harness's JVM. For debugging only: the
// report flags them IN_PROCESS. The host gets the batch's environment,
// not a run's env (one process cannot have two); a failed run ends it,
// and the next forks: 0 run starts a new one. A run's faults stay its
// own: the host fails a run that closed or replaced its standard files
// or changed its directory (internal/worker's hostState), and the
// executor one that left a process running (leftBehind), killing it.
type host struct {
	p     *process
	stdin *os.File // our end of the host's standard input
	dir   string   // its scratch directory
}

// runHosted runs a forks: 0 run in the batch's host, starting it first
// when there is none. A host that fails a run before the run has begun
// (no hello: it took no assignment, or ended first) was broken by what
// ran before, after that run had ended; the run is not failed for it
// but run again in a new host, once.
func (x *execution) runHosted(r *plan.Run, a *protocol.Assignment) protocol.ForkResult {
	reused := x.host.p != nil
	fr := x.hostOnce(r, a)
	if fr.Err == "" || !reused || !noHello(&fr) || x.ctx.Err() != nil {
		return fr
	}
	if x.opts.Warn != nil {
		x.opts.Warn(fmt.Sprintf("the in-process host (forks: 0) broke between runs (%s), before %s began: it runs in a new host", fr.Err, r.Key))
	}
	return x.hostOnce(r, a)
}

// noHello reports whether a failed run's result holds nothing the run
// sent, not even the hello, whose clock calibration is never zero (a
// failure drops the iterations, not the calibration).
func noHello(fr *protocol.ForkResult) bool {
	return fr.Timer.ResolutionNs == 0 && fr.Timer.OverheadNs == 0
}

// hostOnce runs a forks: 0 run in the batch's host, starting it first
// when there is none.
func (x *execution) hostOnce(r *plan.Run, a *protocol.Assignment) protocol.ForkResult {
	fr := protocol.ForkResult{Run: a.Run.Index, Fork: a.Fork, Warmup: a.Warmup, ExitStatus: -1}
	h := &x.host
	if h.p == nil {
		if err := x.startHost(); err != nil {
			fr.Err = fmt.Sprintf("starting the in-process host: %v", err)
			return fr
		}
	}
	line, err := json.Marshal(a)
	if err != nil {
		fr.Err = fmt.Sprintf("encoding the assignment: %v", err)
		return fr
	}
	start, since := time.Now(), bootTicks()
	fr.PID = h.p.pid
	failure, finished := "", false
	if _, err := h.stdin.Write(append(line, '\n')); err != nil {
		failure = fmt.Sprintf("the in-process host took no assignment: %v", err)
	} else {
		failure, finished = collect(x.ctx, h.p, r, a, &fr, x.obs, nil)
	}
	fr.Wall = time.Since(start)
	if failure == "" && finished {
		left := x.leftBehind(since)
		if len(left) == 0 {
			fr.ExitStatus = 0
			return fr
		}
		failure = fmt.Sprintf("the run left %d process(es) running after it ended: %s; killed (forks: 0 runs share one process, beside which they would have run on)",
			len(left), strings.Join(left, ", "))
	}
	if failure == "" {
		failure = "the in-process host ended before the run did"
	}
	x.stopHost()
	fr.Err, fr.StderrTail = failure, h.p.out.String()
	fr.Iterations, fr.Metrics, fr.Profiles = nil, nil, nil
	h.p = nil
	return fr
}

func (x *execution) startHost() error {
	h := &x.host
	dir, err := x.scratch.take()
	if err != nil {
		return err
	}
	in, out, err := os.Pipe()
	if err != nil {
		removeDir(dir)
		return err
	}
	env := append(WithoutRoles(os.Environ(), nil), protocol.EnvBatch+"="+x.mark, protocol.EnvHost+"=1")
	p, err := startProcessIn(x.opts.Executable, dir, env, x.mark, x.opts.TailBytes, in)
	in.Close()
	if err != nil {
		out.Close()
		removeDir(dir)
		return err
	}
	x.guard.watch(p.pid)
	h.p, h.stdin, h.dir = p, out, dir
	return nil
}

// leftBehind kills the processes a run of the host left running, and
// returns them as "PID (name)": the host's descendants (in its group or
// not: a setsid child of the living host is still its child), and those
// started since the run began that carry the batch's mark or were
// orphaned to this process, a subreaper (sweep). Between runs the host
// has no process of its own, so every one is the run's.
func (x *execution) leftBehind(since uint64) []string {
	host := x.host.p.pid
	var left []string
	for _, pid := range descendants(host) {
		syscall.Kill(pid, syscall.SIGKILL)
		left = append(left, fmt.Sprintf("%d (%s)", pid, processName(pid)))
	}
	for _, s := range sweep(x.mark, since, true, host) {
		if !slices.ContainsFunc(left, func(l string) bool { return strings.Fields(l)[0] == strings.Fields(s)[0] }) {
			left = append(left, s)
		}
	}
	return left
}

// descendants returns the live processes that descend from pid, by
// their parents in /proc.
func descendants(root int) []int {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok && p.state != 'Z' && p.state != 'X' {
			children[p.ppid] = append(children[p.ppid], pid)
		}
	}
	var out []int
	for todo := children[root]; len(todo) > 0; {
		pid := todo[0]
		todo = append(todo[1:], children[pid]...)
		out = append(out, pid)
	}
	return out
}

// stopHost ends the host: the end of its input ends it, or it is killed.
func (x *execution) stopHost() {
	h := &x.host
	if h.p == nil {
		return
	}
	h.stdin.Close()
	h.p.finish()
	h.p.close()
	x.guard.forget(h.p.pid)
	removeDir(h.dir)
}
