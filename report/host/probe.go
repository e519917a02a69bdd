package host

import (
	"bufio"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/report"
)

// probeEnv reads the facts of an EnvCheck from a Linux file system
// (/proc, /sys); on other systems the files are missing and the facts
// unknown. numCPU is the affinity mask's size.
func probeEnv(fsys fs.FS, numCPU int) *report.EnvCheck {
	c := &report.EnvCheck{
		Governors:    governors(fsys),
		Hypervisor:   hypervisor(fsys),
		LoadAverage:  loadAverage(fsys),
		AffinityCPUs: numCPU,
		CgroupCPUs:   cgroupCPUs(fsys),
		Diagnostics:  []report.Diagnostic{},
	}
	c.AvailableCPUs = report.Float(numCPU)
	if c.CgroupCPUs.Valid() && float64(c.CgroupCPUs) < float64(numCPU) {
		c.AvailableCPUs = c.CgroupCPUs
	}
	if numCPU <= 0 {
		c.AvailableCPUs = c.CgroupCPUs
	}
	return c
}

func readTrim(fsys fs.FS, name string) string {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func governors(fsys fs.FS) []string {
	files, _ := fs.Glob(fsys, "sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor")
	out := []string{}
	for _, f := range files {
		if g := readTrim(fsys, f); g != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// virtualVendors are DMI vendor and product names of virtual machines.
var virtualVendors = []string{"QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen", "Microsoft Corporation", "Amazon EC2", "Google Compute Engine", "Parallels", "BHYVE", "OpenStack"}

// hypervisor names the hypervisor from /sys/hypervisor, the DMI vendor or
// product, or the x86 cpuinfo flag that every hypervisor sets.
func hypervisor(fsys fs.FS) string {
	if t := readTrim(fsys, "sys/hypervisor/type"); t != "" {
		return t
	}
	for _, f := range []string{"sys/class/dmi/id/product_name", "sys/class/dmi/id/sys_vendor"} {
		v := readTrim(fsys, f)
		for _, name := range virtualVendors {
			if v != "" && strings.Contains(strings.ToLower(v), strings.ToLower(name)) {
				return v
			}
		}
	}
	f, err := fsys.Open("proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "flags" {
			if slices.Contains(strings.Fields(value), "hypervisor") {
				return "cpuinfo hypervisor flag"
			}
			return ""
		}
	}
	return ""
}

func loadAverage(fsys fs.FS) [3]report.Float {
	out := [3]report.Float{report.NaN(), report.NaN(), report.NaN()}
	fields := strings.Fields(readTrim(fsys, "proc/loadavg"))
	for i := 0; i < 3 && i < len(fields); i++ {
		if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
			out[i] = report.Float(v)
		}
	}
	return out
}

// cgroupCPUs is the tightest CPU quota of the process's cgroup and its
// ancestors, cgroup v2 (cpu.max) or v1 (cpu.cfs_quota_us over
// cpu.cfs_period_us); NaN when unlimited or unknown.
func cgroupCPUs(fsys fs.FS) report.Float {
	best := math.Inf(1)
	for _, line := range strings.Split(readTrim(fsys, "proc/self/cgroup"), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		controllers, rel := parts[1], strings.TrimPrefix(parts[2], "/")
		var dirs []string
		switch {
		case parts[0] == "0" && controllers == "":
			dirs = []string{"sys/fs/cgroup", "sys/fs/cgroup/unified"}
		case slices.Contains(strings.Split(controllers, ","), "cpu"):
			dirs = []string{"sys/fs/cgroup/" + controllers, "sys/fs/cgroup/cpu"}
		default:
			continue
		}
		for _, dir := range dirs {
			for p := rel; ; p = path.Dir(p) {
				if p == "." || p == "/" {
					p = ""
				}
				if q := quota(fsys, path.Join(dir, p)); q < best {
					best = q
				}
				if p == "" {
					break
				}
			}
		}
	}
	if math.IsInf(best, 1) {
		return report.NaN()
	}
	return report.Float(best)
}

// quota reads one cgroup directory's CPU quota in CPUs; +Inf when none.
func quota(fsys fs.FS, dir string) float64 {
	if f := strings.Fields(readTrim(fsys, path.Join(dir, "cpu.max"))); len(f) == 2 && f[0] != "max" {
		q, err1 := strconv.ParseFloat(f[0], 64)
		p, err2 := strconv.ParseFloat(f[1], 64)
		if err1 == nil && err2 == nil && q > 0 && p > 0 {
			return q / p
		}
	}
	q, err1 := strconv.ParseFloat(readTrim(fsys, path.Join(dir, "cpu.cfs_quota_us")), 64)
	p, err2 := strconv.ParseFloat(readTrim(fsys, path.Join(dir, "cpu.cfs_period_us")), 64)
	if err1 == nil && err2 == nil && q > 0 && p > 0 {
		return q / p
	}
	return math.Inf(1)
}
