// Package child starts child processes that must die with the process
// that started them: the executor's forks and a fork's go test binary.
package child

import (
	"os"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// StartLocked starts cmd from a goroutine locked to its OS thread for the
// child's whole life: Pdeathsig fires when the thread that started the
// child exits, not the process (go.dev/issue/27505). The child starts
// without CAP_SYS_PTRACE (noPtraceCap). The channel gets Wait's error
// once the child has exited.
//
// While the child runs, nothing of this process sits in a system call
// for it: the locked goroutine is parked (its thread asleep, alive), and
// the child's exit is awaited through the runtime's network poller (a
// pidfd, readable once the child has exited), not a blocking wait. A
// goroutine blocked in a system call keeps its P from going idle, which
// keeps the runtime's monitor thread polling every 20 µs for up to 10 ms
// of every child's start — work on the CPUs the child runs on.
func StartLocked(cmd *exec.Cmd) (<-chan error, error) {
	started := make(chan error, 1)
	reaped := make(chan struct{})
	go func() {
		// Never unlocked: the thread ends with this goroutine, and its
		// narrowed capability bounding set with it.
		runtime.LockOSThread()
		noPtraceCap()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		<-reaped
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() {
		awaitExit(cmd.Process.Pid)
		err := cmd.Wait()
		close(reaped)
		exited <- err
	}()
	return exited, nil
}

// noPtraceCap drops CAP_SYS_PTRACE from the calling thread's capability
// bounding set, which the children it starts inherit: a child of root
// then has no CAP_SYS_PTRACE, and cannot open the memory (/proc/PID/mem)
// of a process that is not dumpable, such as the benchspec program while
// it runs forks. Without CAP_SETPCAP (not root) it fails, and there is
// nothing to drop.
func noPtraceCap() { unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_PTRACE, 0, 0, 0) }

// awaitExit returns once child pid has exited (not yet reaped), or at
// once where that cannot be awaited through the poller (no pidfd: Linux
// before 5.3); Wait then blocks as usual.
func awaitExit(pid int) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Read(func(fd uintptr) bool {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		return err != nil || info.Signo != 0
	})
}
