package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuSnapshot is the machine's busy CPU time and this process's own (with
// its children's) at one moment: the difference between two of them says
// how much of the machine other processes used meanwhile, which disturbs
// every figure here.
type cpuSnapshot struct {
	at          time.Time
	busy, steal time.Duration // all CPUs, from /proc/stat; -1 where unknown
	own         time.Duration // this process and its waited-for children
}

func snapshotCPU() cpuSnapshot {
	s := cpuSnapshot{at: time.Now(), busy: -1, steal: -1}
	var self, kids syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) == nil && syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids) == nil {
		s.own = tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
	}
	f, err := os.Open("/proc/stat")
	if err != nil {
		return s
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return s
	}
	fields := strings.Fields(sc.Text()) // cpu user nice system idle iowait irq softirq steal ...
	if len(fields) < 9 || fields[0] != "cpu" {
		return s
	}
	tick := func(i int) time.Duration {
		v, _ := strconv.ParseInt(fields[i], 10, 64)
		return time.Duration(v) * 10 * time.Millisecond // USER_HZ = 100
	}
	s.busy = tick(1) + tick(2) + tick(3) + tick(6) + tick(7)
	s.steal = tick(8)
	return s
}

func tv(t syscall.Timeval) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
}

// others is the share of the machine's CPUs that other processes used
// between a and b, and the share the hypervisor stole; NaN-free: -1 where
// /proc/stat is missing.
func others(a, b cpuSnapshot, cpus int) (used, stolen float64) {
	if a.busy < 0 || b.busy < 0 {
		return -1, -1
	}
	capacity := float64(b.at.Sub(a.at)) * float64(cpus)
	used = float64((b.busy-a.busy)-(b.own-a.own)) / capacity
	return max(used, 0), float64(b.steal-a.steal) / capacity
}
