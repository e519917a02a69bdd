package plan

import (
	"strings"
	"testing"

	"github.com/benchspec/benchspec/spec"
)

// TestRepeatedIncludes checks that entries repeating an include (and
// exclude) select what each would alone, and that one matching nothing
// is reported at every entry that repeats it.
func TestRepeatedIncludes(t *testing.T) {
	s := mustParse(t, `benchmarks:
  - include: 'sqrt'
  - include: 'sqrt'
    exclude: 'Sunk'
  - include: 'sqrt'
    modes: [thrpt]
`)
	p, err := Build([]*spec.Spec{s}, registry)
	if err != nil {
		t.Fatal(err)
	}
	want := "sqrt.Dropped:avgt sqrt.Sunk:avgt sqrt.Dropped:avgt#2 sqrt.Dropped:thrpt sqrt.Sunk:thrpt"
	if got := strings.Join(keys(p), " "); got != want {
		t.Errorf("runs %s, want %s", got, want)
	}
	bad := mustParse(t, `benchmarks:
  - include: 'nothing'
  - include: 'sqrt'
  - include: 'nothing'
`)
	_, err = Build([]*spec.Spec{bad}, registry)
	errs := spec.Errors(err)
	if len(errs) != 2 || errs[0].Pos.Line != 4 || errs[1].Pos.Line != 6 || !strings.Contains(errs[1].Msg, `include 'nothing' matches no registered benchmark`) {
		t.Errorf("errors %v, want one at each entry of 'nothing' (lines 4 and 6)", err)
	}
}
