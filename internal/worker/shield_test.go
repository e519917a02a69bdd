package worker

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter interprets the classic BPF program of a seccomp filter (the
// few instructions shieldFilter uses) on a system call.
func runFilter(t *testing.T, prog []unix.SockFilter, arch uint32, nr int, arg0 uint32) uint32 {
	t.Helper()
	data := make([]byte, 64) // seccomp_data
	binary.LittleEndian.PutUint32(data[0:], uint32(nr))
	binary.LittleEndian.PutUint32(data[4:], arch)
	binary.LittleEndian.PutUint32(data[16:], arg0)
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K:
			if acc == in.K {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("instruction %d: unknown code %#x", pc, in.Code)
		}
	}
	t.Fatal("the program ran off its end")
	return 0
}

// TestShieldStopsPtraceAndThreadSignals checks the filter's decisions:
// signals to the parent by its pid or by any of its threads' ids (kill of
// a thread id signals the whole process), to its group or to all are
// refused, as are tkill and ptrace attaching or seizing anything; other
// targets, PTRACE_TRACEME and other calls pass. With the most threads the
// filter names, every jump still lands (it is at most 255 forward).
func TestShieldStopsPtraceAndThreadSignals(t *testing.T) {
	const arch, ppid, pgrp = unix.AUDIT_ARCH_X86_64, 1000, 999
	deny, allow := unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM), uint32(unix.SECCOMP_RET_ALLOW)
	for _, n := range []int{0, 3, maxShieldThreads} {
		tids := make([]uint32, n)
		for i := range tids {
			tids[i] = uint32(ppid + 1 + i)
		}
		prog := shieldFilter(arch, ppid, uint32(-pgrp&0xffffffff), tids)
		last := uint32(ppid + n) // the parent's last thread (the parent itself when it has none)
		for _, tc := range []struct {
			name string
			nr   int
			arg  uint32
			want uint32
		}{
			{"kill(parent)", unix.SYS_KILL, ppid, deny},
			{"kill(parent's thread)", unix.SYS_KILL, last, deny},
			{"kill(-pgrp)", unix.SYS_KILL, uint32(-pgrp & 0xffffffff), deny},
			{"kill(-1)", unix.SYS_KILL, 0xffffffff, deny},
			{"kill(other)", unix.SYS_KILL, 5000, allow},
			{"rt_sigqueueinfo(parent's thread)", unix.SYS_RT_SIGQUEUEINFO, last, deny},
			{"pidfd_open(parent)", unix.SYS_PIDFD_OPEN, ppid, deny},
			{"tgkill(parent, …)", unix.SYS_TGKILL, ppid, deny},
			{"tgkill(other, …)", unix.SYS_TGKILL, 5000, allow},
			{"tkill(any)", unix.SYS_TKILL, 5000, deny},
			{"ptrace(ATTACH)", unix.SYS_PTRACE, unix.PTRACE_ATTACH, deny},
			{"ptrace(SEIZE)", unix.SYS_PTRACE, unix.PTRACE_SEIZE, deny},
			{"ptrace(TRACEME)", unix.SYS_PTRACE, unix.PTRACE_TRACEME, allow},
			{"ptrace(CONT)", unix.SYS_PTRACE, unix.PTRACE_CONT, allow},
			{"getpid", unix.SYS_GETPID, 0, allow},
		} {
			if got := runFilter(t, prog, arch, tc.nr, tc.arg); got != tc.want {
				t.Errorf("%d threads: %s: %#x, want %#x", n, tc.name, got, tc.want)
			}
		}
		if got := runFilter(t, prog, unix.AUDIT_ARCH_I386, unix.SYS_KILL, ppid); got != allow {
			t.Errorf("%d threads: another architecture: %#x, want allow (the arch check falls through)", n, got)
		}
		if len(prog) > 4096 {
			t.Errorf("%d threads: %d instructions, more than a filter may have", n, len(prog))
		}
	}
}
