package host

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/report"
)

func TestProbeEnv(t *testing.T) {
	cgroupV1 := fstest.MapFS{
		"proc/loadavg":     {Data: []byte("1.50 0.75 0.25 2/100 1234\n")},
		"proc/cpuinfo":     {Data: []byte("processor\t: 0\nflags\t\t: fpu sse2 hypervisor avx\n")},
		"proc/self/cgroup": {Data: []byte("4:memory:/x\n2:cpu,cpuacct:/bench\n0::/\n")},
		"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": {Data: []byte("powersave\n")},
		"sys/devices/system/cpu/cpu1/cpufreq/scaling_governor": {Data: []byte("performance\n")},
		"sys/fs/cgroup/cpu,cpuacct/bench/cpu.cfs_quota_us":     {Data: []byte("150000\n")},
		"sys/fs/cgroup/cpu,cpuacct/bench/cpu.cfs_period_us":    {Data: []byte("100000\n")},
		"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us":           {Data: []byte("-1\n")},
		"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us":          {Data: []byte("100000\n")},
	}
	got := probeEnv(cgroupV1, 4)
	want := &report.EnvCheck{
		Governors:     []string{"performance", "powersave"},
		Hypervisor:    "cpuinfo hypervisor flag",
		LoadAverage:   [3]report.Float{1.5, 0.75, 0.25},
		AffinityCPUs:  4,
		CgroupCPUs:    1.5,
		AvailableCPUs: 1.5,
		Diagnostics:   []report.Diagnostic{},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cgroup v1 (-want +got):\n%s", diff)
	}

	cgroupV2 := fstest.MapFS{
		"proc/self/cgroup":                       {Data: []byte("0::/user.slice/bench\n")},
		"sys/fs/cgroup/user.slice/cpu.max":       {Data: []byte("50000 100000\n")},
		"sys/fs/cgroup/user.slice/bench/cpu.max": {Data: []byte("max 100000\n")},
		"sys/class/dmi/id/sys_vendor":            {Data: []byte("QEMU\n")},
	}
	got = probeEnv(cgroupV2, 8)
	if got.CgroupCPUs != 0.5 || got.AvailableCPUs != 0.5 || got.Hypervisor != "QEMU" || got.LoadAverage[0].Valid() {
		t.Errorf("cgroup v2: %+v, want quota 0.5 from the parent cgroup, QEMU, no load average", got)
	}

	bare := probeEnv(fstest.MapFS{}, 2)
	if bare.CgroupCPUs.Valid() || float64(bare.AvailableCPUs) != 2 || bare.Hypervisor != "" || len(bare.Governors) != 0 {
		t.Errorf("nothing exposed: %+v, want only the affinity mask", bare)
	}
}
