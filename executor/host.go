package executor

import (
	"encoding/json"
	"fmt"
	"os"
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
// and the next forks: 0 run starts a new one.
type host struct {
	p     *process
	stdin *os.File // our end of the host's standard input
	dir   string   // its scratch directory
}

// runHosted runs a forks: 0 run in the batch's host, starting it first
// when there is none.
func (x *execution) runHosted(r *plan.Run, a *protocol.Assignment) protocol.ForkResult {
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
	start := time.Now()
	fr.PID = h.p.pid
	failure, finished := "", false
	if _, err := h.stdin.Write(append(line, '\n')); err != nil {
		failure = fmt.Sprintf("the in-process host took no assignment: %v", err)
	} else {
		failure, finished = collect(x.ctx, h.p, r, a, &fr, x.obs, nil)
	}
	fr.Wall = time.Since(start)
	if failure == "" && finished {
		fr.ExitStatus = 0
		return fr
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
