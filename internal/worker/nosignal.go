package worker

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/benchspec/benchspec/internal/protocol"
)

// ShieldParent makes the kernel refuse (EPERM) every signal this process
// or anything it starts sends to the parent ppid, its threads known at
// fork start (/proc/PPID/task), its process group pgrp, or kill(-1, …),
// so a benchmark's `kill $PPID`, `kill 0` or pkill-like code cannot stop
// the batch by accident. ptrace ATTACH/SEIZE is refused whatever the
// target (attached to its parent, a body stopped the batch forever);
// PTRACE_TRACEME stays allowed. tkill is refused outright.
//
// It is a seccomp filter on every thread (TSYNC), inherited and not
// removable, without seccomp's speculation mitigations (SPEC_ALLOW); it
// requires no_new_privs (setuid binaries gain nothing from here on). A
// pidfd from /proc/PID is not caught: that takes intent. It reports
// whether the filter is in place: not off amd64/arm64, nor where the
// kernel or a container's seccomp policy refuses it.
func ShieldParent(ppid, pgrp int) bool {
	var arch uint32
	switch runtime.GOARCH {
	case "amd64":
		arch = unix.AUDIT_ARCH_X86_64
	case "arm64":
		arch = unix.AUDIT_ARCH_AARCH64
	default:
		return false
	}
	if ppid <= 1 {
		return false // the parent is gone already
	}
	prog := shieldFilter(arch, uint32(ppid), uint32(-pgrp), parentThreads(ppid))
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return false
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	// SPEC_ALLOW: on x86 with Linux 4.17 to 5.15, whose default mitigation of
	// speculative store bypass (and of Spectre v2 between user tasks) was
	// "seccomp", a filter installed without it turns the mitigation on for
	// the fork and what it starts: the benchmark would run with SSBD
	// (slower loads after stores) and STIBP, which testing.B's process and
	// the measured program in production do not. The shield is no sandbox;
	// it leaves the process as fast as it was. Kernels before 4.17 refuse
	// the flag (EINVAL): then without it.
	errno := seccompFilter(unix.SECCOMP_FILTER_FLAG_TSYNC|unix.SECCOMP_FILTER_FLAG_SPEC_ALLOW, &fprog)
	if errno == unix.EINVAL {
		errno = seccompFilter(unix.SECCOMP_FILTER_FLAG_TSYNC, &fprog)
	}
	runtime.KeepAlive(prog)
	return errno == 0
}

// maxShieldThreads bounds the parent's threads the filter names, and so
// the filter's length (a classic BPF program has at most 4096
// instructions, and a jump at most 255 forward, over the threads' checks).
// A Go parent has a handful.
const maxShieldThreads = 200

// parentThreads lists the thread ids of process ppid other than ppid
// itself, at most maxShieldThreads of them.
func parentThreads(ppid int) []uint32 {
	f, err := os.Open("/proc/" + strconv.Itoa(ppid) + "/task")
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxShieldThreads + 1)
	var tids []uint32
	for _, n := range names {
		if tid, err := strconv.Atoi(n); err == nil && tid != ppid && tid > 0 && len(tids) < maxShieldThreads {
			tids = append(tids, uint32(tid))
		}
	}
	return tids
}

func seccompFilter(flags uintptr, fprog *unix.SockFprog) unix.Errno {
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(fprog)))
	return errno
}

// shieldFilter is the classic BPF program of ShieldParent. seccomp_data
// is {nr u32, arch u32, ip u64, args [6]u64}; a pid argument is an int,
// the low 32 bits of args[0] (offset 16 on these little-endian
// architectures); ptrace's request is args[0] too. tids are the parent's
// other threads.
func shieldFilter(arch, ppid, negPgrp uint32, tids []uint32) []unix.SockFilter {
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	// The program is built in blocks whose jumps name blocks; the
	// offsets are resolved at the end (relative to the next instruction).
	type insn struct {
		unix.SockFilter
		jt, jf string // target labels; "" is the next instruction
	}
	var prog []insn
	labels := map[string]int{}
	label := func(name string) { labels[name] = len(prog) }
	emit := func(code uint16, k uint32, jt, jf string) {
		prog = append(prog, insn{unix.SockFilter{Code: code, K: k}, jt, jf})
	}
	emit(ld, 4, "", "") // arch
	emit(jeq, arch, "", "allow")
	emit(ld, 0, "", "") // syscall number
	emit(jeq, unix.SYS_KILL, "kill", "")
	emit(jeq, unix.SYS_TGKILL, "tgid", "")
	emit(jeq, unix.SYS_RT_SIGQUEUEINFO, "pid", "")
	emit(jeq, unix.SYS_RT_TGSIGQUEUEINFO, "tgid", "")
	emit(jeq, unix.SYS_PIDFD_OPEN, "pid", "")
	emit(jeq, unix.SYS_TKILL, "deny", "")
	emit(jeq, unix.SYS_PTRACE, "ptrace", "")
	emit(ret, allow, "", "")
	// tgkill(tgid, tid, …), rt_tgsigqueueinfo(tgid, …): the parent's
	// process, whichever of its threads.
	label("tgid")
	emit(ld, 16, "", "")
	emit(jeq, ppid, "deny", "allow")
	// ptrace(request, …): attaching to a process.
	label("ptrace")
	emit(ld, 16, "", "")
	emit(jeq, unix.PTRACE_ATTACH, "deny", "")
	emit(jeq, unix.PTRACE_SEIZE, "deny", "allow")
	// kill(pid, sig): everything (-1), the parent's group, else as pid.
	label("kill")
	emit(ld, 16, "", "")
	emit(jeq, 0xffffffff, "deny", "")
	emit(jeq, negPgrp, "deny", "pid")
	// rt_sigqueueinfo(pid, …), pidfd_open(pid, …), kill's pid: the
	// parent or any of its threads (each names the whole process). Last,
	// so that every jump over the threads' checks stays short.
	label("pid")
	emit(ld, 16, "", "")
	for _, tid := range tids {
		emit(jeq, tid, "deny", "")
	}
	emit(jeq, ppid, "deny", "allow")
	label("allow")
	emit(ret, allow, "", "")
	label("deny")
	emit(ret, deny, "", "")
	out := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		out[i] = in.SockFilter
		to := func(l string) uint8 {
			if l == "" {
				return 0
			}
			return uint8(labels[l] - i - 1) // within 255: maxShieldThreads
		}
		out[i].Jt, out[i].Jf = to(in.jt), to(in.jf)
	}
	return out
}

// ShieldedExec is the role of a benchmark binary started with
// protocol.EnvExec: it shields its parent as a fork does (ShieldParent)
// and replaces itself with the program args[0] with arguments args, in
// the environment less EnvExec. It returns only when that exec fails,
// with the exit status 2.
func ShieldedExec(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "benchspec: nothing to exec")
		return 2
	}
	if ppid := os.Getppid(); ppid > 1 {
		pgrp, err := syscall.Getpgid(ppid)
		if err != nil {
			pgrp = ppid
		}
		ShieldParent(ppid, pgrp)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, protocol.EnvExec+"=") {
			env = append(env, kv)
		}
	}
	err := syscall.Exec(args[0], args, env)
	fmt.Fprintf(os.Stderr, "benchspec: exec %s: %v\n", args[0], err)
	return 2
}
