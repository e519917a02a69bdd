package report

import (
	"testing"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// The plan's GOMAXPROCS settings are checked against the CPUs too.
func TestRecheckEnvSeesSpecGOMAXPROCS(t *testing.T) {
	c := &EnvCheck{LoadAverage: [3]Float{0, 0, 0}, AffinityCPUs: 2, CgroupCPUs: NaN(), AvailableCPUs: 2}
	s := spec.Settings{Env: map[string]string{"GOMAXPROCS": "8"}}
	recheckEnv(c, &plan.Plan{Runs: []plan.Run{{Settings: s}}}, 2)
	if len(c.Diagnostics) != 1 || c.Diagnostics[0].Code != "ENV_GOMAXPROCS" || c.Diagnostics[0].Evidence["gomaxprocs"] != 8 {
		t.Errorf("diagnostics %+v, want ENV_GOMAXPROCS for 8", c.Diagnostics)
	}
}

func TestWarnings(t *testing.T) {
	r := &Report{
		Env: Env{Check: &EnvCheck{Diagnostics: []Diagnostic{{Code: "ENV_LOAD", Severity: "warning"}, {Code: "ENV_HYPERVISOR", Severity: "info"}}}},
		Runs: []Run{
			{Diagnostics: []Diagnostic{{Code: "DEAD_CODE", Severity: "warning"}, {Code: "HIGH_VARIANCE", Severity: "info"}}},
			{Diagnostics: []Diagnostic{}},
		},
	}
	if got := r.Warnings(); got != 2 {
		t.Errorf("Warnings() = %d, want 2", got)
	}
}
