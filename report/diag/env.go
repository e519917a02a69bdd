package diag

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Codes of the environment checks, made once per batch.
const (
	EnvGovernor   = "ENV_GOVERNOR"
	EnvHypervisor = "ENV_HYPERVISOR"
	EnvLoad       = "ENV_LOAD"
	EnvGOMAXPROCS = "ENV_GOMAXPROCS"
)

// Env is what the environment check reads, probed at the start of a
// batch (report/host.CollectEnv).
type Env struct {
	// Governors are the distinct cpufreq scaling governors of the CPUs;
	// empty when the OS exposes none (most VMs).
	Governors []string
	// Hypervisor names the hypervisor the machine runs under; "" when none
	// was detected.
	Hypervisor string
	// Load1 is the 1-minute load (/proc/loadavg); NaN when unknown.
	Load1 float64
	// AvailableCPUs is how many CPUs the process may use: its affinity
	// mask, capped by its cgroup CPU quota; 0 when unknown.
	AvailableCPUs float64
	// GOMAXPROCS are the values the forks run with: the parent's, and any
	// GOMAXPROCS the specs set in env.
	GOMAXPROCS []int
}

// CheckEnv returns what in the environment makes every number of the
// batch less trustworthy. A governor other than performance, a busy
// machine and more Ps than CPUs are warnings; a hypervisor and a
// half-busy machine are info.
func CheckEnv(e Env) []Diagnostic {
	var out []Diagnostic
	if bad := slices.DeleteFunc(slices.Clone(e.Governors), func(g string) bool { return g == "performance" }); len(bad) > 0 {
		out = append(out, Diagnostic{
			Code:     EnvGovernor,
			Severity: SeverityWarning,
			Message: fmt.Sprintf("CPU frequency scaling governor %s, not performance: the clock speed changes under the benchmark. "+
				"Set it with `cpupower frequency-set -g performance` for the batch", strings.Join(bad, ", ")),
			Evidence: map[string]float64{},
		})
	}
	if e.Hypervisor != "" {
		out = append(out, Diagnostic{
			Code:     EnvHypervisor,
			Severity: SeverityInfo,
			Message: fmt.Sprintf("running under a hypervisor (%s): other guests share the physical cores and caches, so expect more noise and compare only numbers from the same machine type",
				e.Hypervisor),
			Evidence: map[string]float64{},
		})
	}
	if cpus := e.AvailableCPUs; cpus > 0 && !math.IsNaN(e.Load1) && e.Load1 >= cpus/2 {
		sev, what := SeverityInfo, "half"
		if e.Load1 >= cpus {
			sev, what = SeverityWarning, "all"
		}
		out = append(out, Diagnostic{
			Code:     EnvLoad,
			Severity: sev,
			Message: fmt.Sprintf("load average %.2f with %s CPUs available: %s of the machine was busy before the batch started, and the forks will share it. Run on a quiet machine",
				e.Load1, num(cpus), what),
			Evidence: map[string]float64{"load1": e.Load1, "available_cpus": cpus},
		})
	}
	if cpus := e.AvailableCPUs; cpus > 0 {
		for _, p := range slices.Compact(slices.Sorted(slices.Values(e.GOMAXPROCS))) {
			if float64(p) > math.Ceil(cpus) {
				out = append(out, Diagnostic{
					Code:     EnvGOMAXPROCS,
					Severity: SeverityWarning,
					Message: fmt.Sprintf("GOMAXPROCS %d is above the %s CPUs this process may use (affinity mask and cgroup quota): the scheduler time-slices its Ps and threaded benchmarks measure the time slicing. Lower GOMAXPROCS, or give the process more CPUs",
						p, num(cpus)),
					Evidence: map[string]float64{"gomaxprocs": float64(p), "available_cpus": cpus},
				})
			}
		}
	}
	return out
}
