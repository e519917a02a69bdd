package plan_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/specscale"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// TestParallelFill checks that a plan large enough to be filled on two
// goroutines is the plan filled on one: the same runs in the same order,
// repeated keys numbered across both halves, the same estimate (run it
// with -race too).
func TestParallelFill(t *testing.T) {
	data, reg := specscale.Entries(2*(*plan.ParallelRuns)/3+500, 100), specscale.Benchmarks(100)
	s, err := spec.Parse("scale.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	two, err := plan.Build([]*spec.Spec{s}, reg)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { *plan.ParallelRuns = n }(*plan.ParallelRuns)
	*plan.ParallelRuns = len(two.Runs) + 1
	one, err := plan.Build([]*spec.Spec{s}, reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(two.Runs) < *plan.ParallelRuns-1 || two.Runs[len(two.Runs)-1].Key == reg[len(reg)-1].Name+":avgt" {
		t.Fatalf("%d runs, last key %s: the test needs more runs and repeated keys", len(two.Runs), two.Runs[len(two.Runs)-1].Key)
	}
	if diff := cmp.Diff(one, two); diff != "" {
		t.Errorf("plan filled on two goroutines differs (-one +two):\n%s", diff)
	}
}
