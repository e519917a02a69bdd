package worker

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/benchspec/benchspec/internal/protocol"
)

// ShieldParent makes the kernel refuse, with EPERM, every signal this
// process or anything it starts sends to the process ppid (the batch
// that started the fork) or to its process group pgrp, and kill(-1, …),
// which would reach the parent too. A benchmark that runs `kill $PPID`,
// `kill 0` from a helper that left its group, or pkill-like code cannot
// stop the batch by accident.
//
// It installs a seccomp filter on every thread (SECCOMP_FILTER_FLAG_TSYNC),
// which every descendant inherits and none can remove, without the
// speculation mitigations older kernels tie to seccomp
// (SECCOMP_FILTER_FLAG_SPEC_ALLOW). That requires
// no_new_privs: from here on, executing a setuid binary grants no
// privileges. The filter checks the target of kill, tgkill,
// rt_sigqueueinfo, rt_tgsigqueueinfo and pidfd_open; tkill, deprecated and
// unused by Go and glibc, is refused whatever its target. A signal sent
// through a pidfd obtained otherwise (opening /proc/PID) is not caught:
// that takes intent.
//
// It reports whether the filter is in place; it is not on architectures
// other than amd64 and arm64, nor where the kernel or a container's own
// seccomp policy refuses it.
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
	prog := shieldFilter(arch, uint32(ppid), uint32(-pgrp))
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

func seccompFilter(flags uintptr, fprog *unix.SockFprog) unix.Errno {
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(fprog)))
	return errno
}

// shieldFilter is the classic BPF program of ShieldParent. seccomp_data
// is {nr u32, arch u32, ip u64, args [6]u64}; a pid argument is an int,
// the low 32 bits of args[0] (offset 16 on these little-endian
// architectures).
func shieldFilter(arch, ppid, negPgrp uint32) []unix.SockFilter {
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	// Instruction indices, for the jumps (relative to the next one).
	const (
		iKill  = 10 // checks of kill's pid
		iPid   = 14 // checks of a tgid or pid argument
		iAllow = 16
		iDeny  = 17
	)
	to := func(at, target int) uint8 { return uint8(target - at - 1) }
	return []unix.SockFilter{
		0: {Code: ld, K: 4}, // arch
		1: {Code: jeq, K: arch, Jt: 0, Jf: to(1, iAllow)},
		2: {Code: ld, K: 0}, // syscall number
		3: {Code: jeq, K: unix.SYS_KILL, Jt: to(3, iKill)},
		4: {Code: jeq, K: unix.SYS_TGKILL, Jt: to(4, iPid)},
		5: {Code: jeq, K: unix.SYS_RT_SIGQUEUEINFO, Jt: to(5, iPid)},
		6: {Code: jeq, K: unix.SYS_RT_TGSIGQUEUEINFO, Jt: to(6, iPid)},
		7: {Code: jeq, K: unix.SYS_PIDFD_OPEN, Jt: to(7, iPid)},
		8: {Code: jeq, K: unix.SYS_TKILL, Jt: to(8, iDeny)},
		9: {Code: ret, K: allow},
		// kill(pid, sig): the parent, its group, or everything (-1).
		10: {Code: ld, K: 16},
		11: {Code: jeq, K: 0xffffffff, Jt: to(11, iDeny)},
		12: {Code: jeq, K: negPgrp, Jt: to(12, iDeny)},
		13: {Code: jeq, K: ppid, Jt: to(13, iDeny), Jf: to(13, iAllow)},
		// tgkill(tgid, …), rt_sigqueueinfo(tgid, …), rt_tgsigqueueinfo(tgid, …), pidfd_open(pid, …).
		14: {Code: ld, K: 16},
		15: {Code: jeq, K: ppid, Jt: to(15, iDeny)},
		16: {Code: ret, K: allow},
		17: {Code: ret, K: deny},
	}
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
