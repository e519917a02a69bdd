package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Build fills every run's diagnostics with the thresholds of its entry,
// and records those thresholds in the run's settings.
func TestBuildDiagnoses(t *testing.T) {
	p, forks, env := fixture()
	codes := func(r *Report) [][]string {
		var out [][]string
		for _, run := range r.Runs {
			cs := []string{}
			for _, d := range run.Diagnostics {
				cs = append(cs, d.Code)
			}
			out = append(out, cs)
		}
		return out
	}
	// Run 0's two forks are 17 % apart: the interval that counts forks is
	// wider than the score.
	want := [][]string{{"TOO_FEW_SAMPLES", "HIGH_VARIANCE"}, {"TOO_FEW_SAMPLES"}, {"TIMER_RESOLUTION"}, {}}
	if diff := cmp.Diff(want, codes(Build(p, forks, env))); diff != "" {
		t.Errorf("codes (-want +got):\n%s", diff)
	}
	p.Runs[0].Settings.Diagnostics.HighVarianceCV = 0.5
	p.Runs[1].Settings.Diagnostics.Ignore = []string{"TOO_FEW_SAMPLES"}
	rep := Build(p, forks, env)
	if diff := cmp.Diff([][]string{{"TOO_FEW_SAMPLES"}, {}, {"TIMER_RESOLUTION"}, {}}, codes(rep)); diff != "" {
		t.Errorf("with the thresholds changed, codes (-want +got):\n%s", diff)
	}
	if s := rep.Runs[0].Settings.Diagnostics; s.HighVarianceCV != 0.5 || s.NotSteadyP != 0.001 {
		t.Errorf("settings.diagnostics = %+v, want high_variance_cv 0.5 and the other defaults", s)
	}
}
