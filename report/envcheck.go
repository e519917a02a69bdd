package report

import (
	"strconv"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/diag"
)

// EnvCheck is what the start of a batch found in the environment that can
// make every number of the batch less trustworthy: the facts it read and
// the diagnostics (report/diag.CheckEnv) they gave. Facts the OS does not
// expose are empty or null.
type EnvCheck struct {
	// Governors are the distinct cpufreq scaling governors of the CPUs.
	Governors []string `json:"governors"`
	// Hypervisor names the hypervisor the machine runs under; "" when none
	// was detected.
	Hypervisor string `json:"hypervisor"`
	// LoadAverage is the 1, 5 and 15 minute loads (/proc/loadavg).
	LoadAverage [3]Float `json:"load_average"`
	// AffinityCPUs is the number of CPUs in the process's affinity mask
	// (sched_getaffinity, as runtime.NumCPU reads it).
	AffinityCPUs int `json:"affinity_cpus"`
	// CgroupCPUs is the cgroup CPU quota in CPUs (quota / period); null
	// when unlimited or unknown.
	CgroupCPUs Float `json:"cgroup_cpus"`
	// AvailableCPUs is the smaller of AffinityCPUs and CgroupCPUs.
	AvailableCPUs Float        `json:"available_cpus"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
}

// Diagnose sets the check's diagnostics (report/diag.CheckEnv) from its
// facts, for the parent's GOMAXPROCS and any other values the forks will
// run with: report/host probes the facts and diagnoses them for the
// parent's; Build diagnoses them again with the plan's.
func (c *EnvCheck) Diagnose(gomaxprocs ...int) {
	c.Diagnostics = envDiagnostics(c, gomaxprocs)
}

// recheckEnv adds to the check the GOMAXPROCS values the plan's specs set
// for the forks.
func recheckEnv(c *EnvCheck, p *plan.Plan, gomaxprocs int) {
	procs := []int{gomaxprocs}
	for _, r := range p.Runs {
		if n, err := strconv.Atoi(r.Settings.Env["GOMAXPROCS"]); err == nil && n > 0 {
			procs = append(procs, n)
		}
	}
	c.Diagnose(procs...)
}

func envDiagnostics(c *EnvCheck, gomaxprocs []int) []Diagnostic {
	return diagnostics(diag.CheckEnv(diag.Env{
		Governors:     c.Governors,
		Hypervisor:    c.Hypervisor,
		Load1:         float64(c.LoadAverage[0]),
		AvailableCPUs: availableOrZero(c.AvailableCPUs),
		GOMAXPROCS:    gomaxprocs,
	}))
}

func availableOrZero(f Float) float64 {
	if !f.Valid() {
		return 0
	}
	return float64(f)
}
