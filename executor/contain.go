package executor

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/executor/internal/child"
	"github.com/benchspec/benchspec/internal/protocol"
)

// Contained is a process that runs a package's code outside a fork — the
// listing run of a package's test binary at plan time (executor/gotest)
// — in the sandbox a fork has: a process group of its own, killed with
// SIGKILL if this process dies (Pdeathsig); a mark of its own
// (protocol.EnvBatch) in its environment; this process a child
// subreaper while it runs; a guard that ends its group and the marked
// processes if this process is killed; and, when it is started through
// a benchmark binary (exe), the seccomp shield against signals to this
// process and its group (see ShieldedExec). When it has exited, its
// group is killed and the processes it left outside it are found as
// after a fork (sweep), killed and named. The timeout is the caller's
// (Kill).
type Contained struct {
	cmd     *exec.Cmd
	exited  <-chan error
	mark    string
	since   uint64
	guard   *guard
	restore func()
	once    sync.Once
}

// StartContained starts cmd as a contained process. exe is a benchmark
// binary (one whose start serves the roles of worker.ServeChild: a suite, or
// cmd/benchspec) that serves as the guard and starts cmd behind the
// shield; "" starts cmd directly, without guard and shield (tests of
// packages that are no such binary). cmd's Env must be set.
func StartContained(cmd *exec.Cmd, exe string) (*Contained, error) {
	c := &Contained{cmd: cmd, mark: newBatchMark(), since: bootTicks()}
	cmd.Env = append(WithoutRoles(cmd.Env, nil), protocol.EnvBatch+"="+c.mark)
	if exe != "" {
		g, err := startGuard(exe, c.mark)
		if err != nil {
			return nil, err
		}
		c.guard = g
		path := cmd.Path
		if !strings.Contains(path, "/") {
			if lp, err := exec.LookPath(path); err == nil {
				path = lp
			}
		}
		cmd.Args = append([]string{exe, path}, cmd.Args[1:]...)
		cmd.Path = exe
		cmd.Env = append(cmd.Env, protocol.EnvExec+"=1")
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid, cmd.SysProcAttr.Pdeathsig = true, syscall.SIGKILL
	c.restore = beParent()
	exited, err := child.StartLocked(cmd)
	if err != nil {
		c.restore()
		c.guard.stop()
		return nil, err
	}
	c.exited = exited
	started.Store(cmd.Process.Pid, true)
	c.guard.watch(cmd.Process.Pid)
	return c, nil
}

// Kill kills the contained process's group.
func (c *Contained) Kill() error {
	return syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
}

// Wait waits for the contained process to exit, then kills its group
// and the processes it left outside it, and returns those as
// "PID (name)" with Wait's error.
func (c *Contained) Wait() (left []string, err error) {
	err = <-c.exited
	c.once.Do(func() {
		pid := c.cmd.Process.Pid
		started.Delete(pid)
		// What is left in its group gets strayGrace to end, then is
		// killed with the group.
		deadline := time.Now().Add(strayGrace)
		for syscall.Kill(-pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if syscall.Kill(-pid, 0) == nil {
			left = append(left, fmt.Sprintf("process group %d", pid))
			syscall.Kill(-pid, syscall.SIGKILL)
		}
		left = append(left, sweep(c.mark, c.since, true, pid)...)
		c.guard.forget(pid)
		c.guard.stop()
		c.restore()
	})
	return left, err
}
