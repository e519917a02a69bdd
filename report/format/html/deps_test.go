package html

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSuitesDoNotLinkHTML: every suite binary links the root package, and
// every fork is a suite binary started afresh, paying the initialisation
// of all it links. Neither this package nor its chart library, nor the
// table library the text table once used, may be among them.
func TestSuitesDoNotLinkHTML(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/benchspec/benchspec").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
	for _, dep := range deps {
		for _, banned := range []string{
			"github.com/benchspec/benchspec/report/format/html",
			"gonum.org/v1/plot",
			"github.com/olekukonko/tablewriter",
		} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("the root package links %s", dep)
			}
		}
	}
}
