package runlog

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

// envDiagnostics are the environment check's diagnostics of a busy
// two-core machine, the messages as the check writes them.
var envDiagnostics = []report.Diagnostic{
	{Severity: "warning", Code: "ENV_LOAD", Message: "load average 3.41 with 2 CPUs available: all of the machine was busy before the batch started, and the forks will share it. Run on a quiet machine"},
	{Severity: "warning", Code: "ENV_GOMAXPROCS", Message: "GOMAXPROCS 8 is above the 2 CPUs this process may use (affinity mask and cgroup quota): the scheduler time-slices its Ps and threaded benchmarks measure the time slicing. Lower GOMAXPROCS, or give the process more CPUs"},
	{Severity: "info", Code: "ENV_HYPERVISOR", Message: "running under a hypervisor (KVM): other guests share the physical cores and caches, so expect more noise and compare only numbers from the same machine type"},
}

// TestEnvironmentWraps checks the "# Environment:" lines at the widths of
// common terminals: no line is wider than the terminal (which would break
// a word at its edge), every continuation is a comment, and the words are
// the message's, in order and whole.
func TestEnvironmentWraps(t *testing.T) {
	var golden strings.Builder
	for _, width := range []int{80, 120} {
		var b strings.Builder
		if err := Environment(&b, envDiagnostics, width); err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSuffix(b.String(), "\n")
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("width %d: line of %d columns: %q", width, n, line)
			}
			if !strings.HasPrefix(line, "# Environment: ") && !strings.HasPrefix(line, "#   ") {
				t.Errorf("width %d: line is not a run log comment: %q", width, line)
			}
		}
		var want []string
		for _, d := range envDiagnostics {
			want = append(want, strings.Fields("# Environment: "+d.Severity+" "+d.Code+": "+d.Message)...)
		}
		got := strings.Fields(strings.ReplaceAll(out, "\n#   ", " "))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("width %d: words changed:\n got %q\nwant %q", width, got, want)
		}
		fmt.Fprintf(&golden, "%d columns:\n%s\n", width, out)
	}
	reporttest.Golden(t, "environment.golden", golden.String())
}
