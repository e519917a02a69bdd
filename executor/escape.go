package executor

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Killing a fork's process group misses what left the group (setpgid) or
// the session (setsid). Two things find those, swept after every fork
// (each one killed and named in the fork's failure): while Execute runs
// the parent is a child subreaper, so a child it did not start, started
// after the fork and outside the parent's group, is the fork's orphan;
// and every fork carries protocol.EnvBatch=MARK, inherited by what it
// starts, so a marked process started after the fork is the fork's
// wherever it was reparented (how the guard finds them after the parent
// was killed). One that cleared its environment and was reparented
// elsewhere escapes: that takes deliberate effort, not an accident.

// started are the processes the executor started and has not yet reaped
// (forks and guards), by PID: the sweeps leave them alone, even those of
// another Execute running in the same process.
var started sync.Map

// parent counts the Execute and StartContained calls under way; the
// first makes this process what a parent of forks must be, the last
// restores what it was.
var parent struct {
	sync.Mutex
	n                   int
	subreaper, dumpable int
}

// beParent makes this process what the parent of forks must be until the
// returned function is called: a child subreaper (the orphans of a fork
// are reparented to it, where the sweeps find them), and not dumpable,
// so that a fork, a process of the same user, cannot open its memory
// (/proc/PID/mem) to read or write it, nor ptrace it. Either fails
// silently where prctl does (not Linux, or a kernel before 3.4): the
// environment mark still finds most escapees.
func beParent() (restore func()) {
	parent.Lock()
	defer parent.Unlock()
	if parent.n == 0 {
		var prev int32
		unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&prev)), 0, 0, 0)
		parent.subreaper = int(prev)
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
		parent.dumpable = notDumpable()
	}
	parent.n++
	return func() {
		parent.Lock()
		defer parent.Unlock()
		if parent.n--; parent.n == 0 {
			unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, uintptr(parent.subreaper), 0, 0, 0)
			unix.Prctl(unix.PR_SET_DUMPABLE, uintptr(parent.dumpable), 0, 0, 0)
		}
	}
}

// notDumpable makes this process not dumpable and returns what it was
// (PR_GET_DUMPABLE; 1, the default, when that fails).
func notDumpable() int {
	prev, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		prev = 1
	}
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	return prev
}

// newBatchMark returns a mark unique to one batch, for protocol.EnvBatch.
func newBatchMark() string {
	return fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
}

// validBatchMark reports whether mark is as newBatchMark makes them:
// two numbers joined by a hyphen.
func validBatchMark(mark string) bool {
	pid, nanos, ok := strings.Cut(mark, "-")
	digits := func(s string) bool {
		return s != "" && strings.Trim(s, "0123456789") == ""
	}
	return ok && digits(pid) && digits(nanos)
}

// bootTicks is the current time in clock ticks since boot, the unit of a
// process's start time in /proc/PID/stat, less one tick so that a process
// started right now does not compare as older. Both are CLOCK_BOOTTIME
// (what /proc/uptime shows), read here with one clock_gettime system
// call rather than the eight of reading /proc/uptime with os.ReadFile.
func bootTicks() uint64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	ticks := uint64(ts.Sec)*clockTicks + uint64(ts.Nsec)/(1e9/clockTicks)
	if ticks < clockTicks {
		return 0
	}
	return ticks - 1
}

// clockTicks is USER_HZ, the unit of /proc's process times: 100 on every
// Linux port that Go supports.
const clockTicks = 100

// sweep finds the processes a fork left behind outside its group — those
// started at or after since that carry mark in their environment, and,
// when adopted is set, this process's children that it did not start and
// that left its process group — kills them, and returns them as
// "PID (name)". It repeats until a pass finds none, since killing a
// process hands its children on (to this process, a subreaper).
//
// Members of process group skip (the fork's, killed and named already,
// perhaps not yet dead) are left out; 0 skips none.
func sweep(mark string, since uint64, adopted bool, skip int) []string {
	self := os.Getpid()
	pgrp := syscall.Getpgrp()
	want := []byte("\x00" + protocol.EnvBatch + "=" + mark + "\x00")
	var out []string
	seen := map[int]bool{}
	for pass := 0; pass < 100; pass++ {
		dirs, err := os.ReadDir("/proc")
		if err != nil {
			return out
		}
		found := 0
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil || pid == self || seen[pid] {
				continue
			}
			if _, ours := started.Load(pid); ours {
				continue
			}
			p, ok := readProc(pid)
			if !ok {
				continue
			}
			child := adopted && p.ppid == self && p.pgid != pgrp
			if p.state == 'Z' || p.state == 'X' {
				if child {
					reapChild(pid) // an adopted orphan that has ended
				}
				continue
			}
			if p.start < since || skip != 0 && p.pgid == skip {
				continue
			}
			if !child && !hasMark(pid, want) {
				continue
			}
			name := processName(pid)
			seen[pid] = true
			found++
			syscall.Kill(pid, syscall.SIGKILL)
			out = append(out, fmt.Sprintf("%d (%s)", pid, name))
			if p.ppid == self {
				go reapChild(pid)
			}
		}
		if found == 0 {
			break
		}
	}
	return out
}

// reapChild waits for a child this process adopted, so that it does not
// stay a zombie.
func reapChild(pid int) {
	var ws unix.WaitStatus
	unix.Wait4(pid, &ws, 0, nil)
}

// onlyKnownChildren reports whether this process, a child subreaper,
// has no child but those in started (forks and guards not yet reaped).
// Then, once a fork has exited and been reaped, nothing it started is
// alive: a live descendant of the fork is, or descends from, a child of
// this process, since every orphan among the fork's descendants is
// reparented to its nearest subreaper ancestor, this process or a
// descendant of it (and a clone(CLONE_PARENT) makes a child of this
// process directly). Where that cannot be established (not a
// subreaper, no /proc/PID/task/TID/children), it reports false and the
// caller sweeps.
func onlyKnownChildren() bool {
	var sub int32
	if unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&sub)), 0, 0, 0) != nil || sub == 0 {
		return false
	}
	// Children hang off the thread that started them, or that a
	// reparented orphan was given to: read every thread's list. A thread
	// that ends meanwhile hands its children to another, perhaps one
	// read already: the threads must be the same after as before.
	tasks := func() []string {
		names, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return nil
		}
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n.Name()
		}
		return out
	}
	before := tasks()
	if len(before) == 0 {
		return false
	}
	// Raw system calls: os.Open would try to register each file with
	// the runtime's poller (four more system calls per thread), and
	// this runs between a fork's exit and its result.
	var buf [4096]byte
	for _, tid := range before {
		fd, err := unix.Open("/proc/self/task/"+tid+"/children", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		n, full := 0, false
		for {
			m, err := unix.Read(fd, buf[n:])
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				unix.Close(fd)
				return false
			}
			if m == 0 {
				break
			}
			if n += m; n == len(buf) {
				full = true // more children than fit
				break
			}
		}
		unix.Close(fd)
		if full {
			return false
		}
		for _, field := range strings.Fields(string(buf[:n])) {
			pid, err := strconv.Atoi(field)
			if err != nil {
				return false
			}
			if _, ours := started.Load(pid); !ours {
				return false
			}
		}
	}
	return slices.Equal(before, tasks())
}

// hasMark reports whether pid's environment holds want
// ("\x00KEY=VALUE\x00"; the first variable has no NUL before it).
func hasMark(pid int, want []byte) bool {
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return false
	}
	return bytes.Contains(append([]byte{0}, env...), want)
}

// proc is what /proc/PID/stat says of a process.
type proc struct {
	state      byte
	ppid, pgid int
	start      uint64 // clock ticks after boot
}

// readProc reads /proc/PID/stat.
func readProc(pid int) (proc, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid pgrp session tty_nr tpgid flags minflt
	// cminflt majflt cmajflt utime stime cutime cstime priority nice
	// num_threads itrealvalue starttime ...; comm may hold spaces and
	// parentheses.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return proc{}, false
	}
	return proc{state: f[0][0], ppid: ppid, pgid: pgid, start: start}, true
}
