package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProduct checks the order of the parameter combinations (names
// sorted, the first varying slowest, values in declared order), the
// entry's values replacing the declared ones, and that rows do not share
// their cells.
func TestProduct(t *testing.T) {
	declared := map[string][]string{"b": {"1", "2", "3"}, "a": {"x", "y"}, "c": {"only"}}
	got := product(declared, map[string][]string{"c": {"p", "q"}})
	var want [][]Param
	for _, a := range []string{"x", "y"} {
		for _, b := range []string{"1", "2", "3"} {
			for _, c := range []string{"p", "q"} {
				want = append(want, []Param{{Name: "a", Value: a}, {Name: "b", Value: b}, {Name: "c", Value: c}})
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("product mismatch (-want +got):\n%s", diff)
	}
	got[0] = append(got[0], Param{Name: "d", Value: "z"})
	if got[1][0] != (Param{Name: "a", Value: "x"}) || len(got[1]) != 3 {
		t.Errorf("appending to one row changed the next: %v", got[1])
	}
	if got := product(nil, nil); len(got) != 1 || got[0] != nil {
		t.Errorf("product of no parameters = %v, want one empty combination", got)
	}
	if got := product(map[string][]string{"a": {"1"}}, map[string][]string{"a": {}}); len(got) != 0 {
		t.Errorf("product with an empty list = %v, want none", got)
	}
}
