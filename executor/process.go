package executor

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/benchspec/benchspec/executor/internal/child"
	"github.com/benchspec/benchspec/internal/protocol"
)

// How long the parent waits for things a fork should do promptly.
const (
	// exitGrace bounds the wait for a fork to exit once it has reported
	// its results or closed its result pipe; past it the fork is killed.
	exitGrace = 10 * time.Second
	// drainGrace bounds the wait for the last bytes of a fork's output and
	// messages once its process group is gone. Only a process that left
	// the group (setsid) can hold the pipes open that long.
	drainGrace = 2 * time.Second
	// strayGrace is how long processes left in a fork's group after it
	// exited get to finish on their own (a helper killed but not yet
	// gone) before they count as left behind.
	strayGrace = 200 * time.Millisecond
	// quitGrace is how long a fork that timed out gets to write its
	// goroutine dump.
	quitGrace = time.Second
)

// process is one started fork: its own process group (pgid == pid), the
// parent's ends of its result pipe and of its output pipe, and the
// goroutines that read them and wait for it.
//
// The fork writes stdout and stderr into one pipe that the parent reads
// itself (rather than handing exec.Cmd an io.Writer), so that the fork's
// exit is seen as soon as it happens even when a process it started still
// holds the pipe open.
type process struct {
	pid     int
	results *os.File      // our end of the result pipe (the fork's protocol.ResultFD)
	output  *os.File      // our end of the fork's stdout and stderr
	out     *tail         // the last bytes of the output
	watch   outWatch      // what the output says about a crash or a hang
	outDone chan struct{} // closed when the output has been read to EOF
	msgs    chan lineMsg  // the result pipe's messages; closed at EOF
	exited  chan struct{} // closed once the fork has exited and been reaped
	state   *os.ProcessState
	werr    error

	killed     bool      // the parent killed the group
	pipeClosed bool      // the fork closed its result pipe while running
	reaped     bool      // the group has been checked and ended after the exit
	strays     []string  // processes found in the group after the fork exited, as "pid (name)"
	escaped    []string  // processes of the fork found outside its group after it exited
	mark       string    // the batch's protocol.EnvBatch value
	since      uint64    // clock ticks after boot before the fork started
	start      time.Time // before the fork started: its iterations' windows lie after it
}

// startProcessIn starts exe as a fork in directory dir ("": this
// process's) with env in a process group of its own, with ResultFD as the
// write end of the result pipe and stdin as its standard input (nil:
// /dev/null).
//
// The fork is killed with SIGKILL if the parent dies (Pdeathsig). Linux
// sends that signal when the thread that started the child exits, not
// the process (go.dev/issue/27505), and Go may end an OS thread whose
// goroutine was locked to it. So the fork is started by a goroutine
// locked to its thread, which stays parked until the fork has been
// reaped: that thread lives at least as long as the fork does
// (child.StartLocked).
func startProcessIn(exe, dir string, env []string, mark string, tailBytes int, stdin *os.File) (*process, error) {
	rr, rw, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("creating the result pipe: %w", err)
	}
	or, ow, err := pipe()
	if err != nil {
		rr.Close()
		rw.Close()
		return nil, fmt.Errorf("creating the output pipe: %w", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = env
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = stdin
	} else if null := devNull(); null != nil {
		cmd.Stdin = null
	}
	cmd.Stdout, cmd.Stderr = ow, ow
	cmd.ExtraFiles = []*os.File{rw} // fd 3 = protocol.ResultFD
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &process{
		results: rr,
		output:  or,
		out:     newTail(tailBytes),
		outDone: make(chan struct{}),
		msgs:    make(chan lineMsg),
		exited:  make(chan struct{}),
		mark:    mark,
		since:   bootTicks(),
		start:   time.Now(),
	}
	waited, err := child.StartLocked(cmd)
	// The fork has its own copies of the write ends (or never will).
	rw.Close()
	ow.Close()
	if err != nil {
		rr.Close()
		or.Close()
		return nil, err
	}
	p.pid = cmd.Process.Pid
	started.Store(p.pid, true)
	go func() {
		p.werr = <-waited
		p.state = cmd.ProcessState
		started.Delete(p.pid)
		close(p.exited)
	}()
	go func() {
		io.Copy(io.MultiWriter(p.out, &p.watch), quietReader(or))
		close(p.outDone)
	}()
	go readMessages(quietReader(rr), p.msgs)
	return p, nil
}

// pipe is os.Pipe for a fork: the read end, the parent's, in the
// runtime's poller (so that closing it ends a blocked read), the write
// end blocking, as the fork gets it. os.Pipe would put both ends in the
// poller and os/exec take the write end out again: a dozen system calls
// more on every fork's way to its exec.
func pipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// quietReader reads f, a pipe end in the runtime's poller, with read(2)
// made as a raw system call, one that the Go scheduler is not told
// about. It may be: on a non-blocking pipe, read returns at once. What
// a system call the scheduler is told about costs is not the call: the
// first one after the runtime's monitor thread (sysmon) fell asleep
// wakes it, and it then polls every 20 µs, 50 times, before it sleeps
// again. A fork's hello and
// each of its iteration messages would set it off while the fork
// measures its next iteration, on the CPUs the fork runs on.
func quietReader(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawReader{f: f, rc: rc}
}

type rawReader struct {
	f  *os.File
	rc syscall.RawConn
}

func (r *rawReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, errno := 0, syscall.Errno(0)
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait in the poller
			}
			n, errno = int(m), e
			return true
		}
	})
	switch {
	case err != nil:
		// Closed (the parent is done with the fork), or not in the
		// poller after all: the ordinary read says which.
		return r.f.Read(p)
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// devNull is /dev/null open for reading, the forks' standard input,
// opened once rather than by os/exec for every fork; nil if it cannot
// be opened (os/exec then opens it itself).
var devNull = sync.OnceValue(func() *os.File {
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil
	}
	return f
})

// dump asks a hung fork for a goroutine dump (SIGQUIT makes the Go
// runtime print every goroutine's stack and exit), gives it quitGrace to
// write it, then kills its group.
func (p *process) dump() {
	syscall.Kill(p.pid, syscall.SIGQUIT)
	select {
	case <-p.exited:
	case <-time.After(quitGrace):
	}
	p.kill()
	select {
	case <-p.outDone:
	case <-time.After(drainGrace):
	}
}

// kill ends the fork's whole process group.
func (p *process) kill() {
	p.killed = true
	syscall.Kill(-p.pid, syscall.SIGKILL)
}

// reap is called once the fork has exited: it notes the processes the
// fork left running in its group (unless the parent killed the group,
// whose members may still be dying), then ends the group, which also
// closes whatever pipe ends those processes held.
func (p *process) reap() {
	if p.reaped {
		return
	}
	p.reaped = true
	if onlyKnownChildren() {
		// Nothing of the fork is alive: no stray in its group, no
		// escapee, and the scans of /proc below (a few ms each on a
		// machine with a hundred processes) would find nothing.
		return
	}
	if !p.killed {
		deadline := time.Now().Add(strayGrace)
		left := child.GroupMembers(p.pid)
		for len(left) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
			left = child.GroupMembers(p.pid)
		}
		for _, pid := range left {
			p.strays = append(p.strays, fmt.Sprintf("%d (%s)", pid, processName(pid)))
		}
	}
	members := child.GroupMembers(p.pid)
	syscall.Kill(-p.pid, syscall.SIGKILL)
	// The fork has exited: its group's members are this process's
	// children now (a subreaper), to be reaped once they die.
	for _, pid := range members {
		go reapChild(pid)
	}
	// Then what left the group. Killed either way; named only when the
	// fork ended by itself (a fork the parent killed had no chance to end
	// its children).
	if escaped := sweep(p.mark, p.since, true, p.pid); !p.killed {
		p.escaped = escaped
	}
}

// finish waits for the fork to exit (killing it when it does not within
// exitGrace, which the returned flag reports), ends its group, and waits
// briefly for the rest of its output.
func (p *process) finish() (killedLate bool) {
	select {
	case <-p.exited:
	case <-time.After(exitGrace):
		p.kill()
		<-p.exited
		killedLate = true
	}
	p.reap()
	select {
	case <-p.outDone:
	case <-time.After(drainGrace):
	}
	return killedLate
}

// trailing reads what is left on the result pipe of a fork that has
// reported its end (done or skip): a healthy fork has written nothing
// more. It returns the cause of failure when the fork did.
func (p *process) trailing() string {
	select {
	case m, ok := <-p.msgs:
		switch {
		case !ok:
			return ""
		case m.err != nil:
			return m.err.Error() + " after the fork reported its end"
		default:
			return fmt.Sprintf("the fork sent a %q message after it reported its end", m.msg.Type)
		}
	case <-time.After(drainGrace):
		return "" // a process the fork started holds the pipe: verdict names it
	}
}

// close releases the parent's pipe ends, which ends the reading
// goroutines if they have not ended yet.
func (p *process) close() {
	p.results.Close()
	p.output.Close()
	go func() {
		for range p.msgs { // unblock the reader if messages were left unread
		}
	}()
}

// closedResultPipe reports whether the fork is still running but no
// longer has the result pipe as its ResultFD: the benchmark closed or
// replaced file descriptor 3. A process that is exiting has closed all
// its descriptors at once, so an empty descriptor table proves nothing.
func (p *process) closedResultPipe() bool {
	fdDir := fmt.Sprintf("/proc/%d/fd", p.pid)
	fds, err := os.ReadDir(fdDir)
	if err != nil || len(fds) == 0 {
		return false
	}
	// Stat, not Fd: Fd would put our end into blocking mode, and close
	// could then no longer interrupt the reader.
	fi, err := p.results.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	link, err := os.Readlink(filepath.Join(fdDir, strconv.Itoa(protocol.ResultFD)))
	return err != nil || link != fmt.Sprintf("pipe:[%d]", st.Ino)
}

// processName is the command name of pid, for messages.
func processName(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(data))
}
