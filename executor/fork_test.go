package executor

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// The encoder writes exactly what json.Marshal writes for an assignment,
// whether the run's part comes from its cache or not.
func TestAssignmentEncoder(t *testing.T) {
	// The encoder writes the fields of protocol.Assignment by hand: a new
	// field must be added there too.
	var names []string
	at := reflect.TypeFor[protocol.Assignment]()
	for i := range at.NumField() {
		names = append(names, at.Field(i).Name)
	}
	if want := []string{"Run", "Fork", "Warmup", "ProfileDir"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("protocol.Assignment has fields %v; assignmentEncoder.encode writes %v", names, want)
	}
	s := spec.DefaultSettings()
	s.Env = map[string]string{"A": "1 <&> é"}
	runs := []plan.Run{
		{Index: 0, Key: "a:avgt", Benchmark: "a", Mode: spec.ModeAverageTime, Settings: s, Params: []plan.Param{{Name: "n", Value: "<3>"}}},
		{Index: 1, Key: "b:sample", Benchmark: "b", Mode: spec.ModeSampleTime, Settings: s.Clone(), Estimate: time.Second},
	}
	var e assignmentEncoder
	for _, a := range []protocol.Assignment{
		{Run: runs[0], Fork: 1, Warmup: true},
		{Run: runs[0], Fork: 2},
		{Run: runs[0], Fork: 3, ProfileDir: "/tmp/p <&> \"q\" é"},
		{Run: runs[1], Fork: 1},
		{Run: runs[0], Fork: 4},
	} {
		for _, iterations := range []int{0, 7} {
			if iterations > 0 {
				a.Run.Settings.Measurement.Iterations = iterations
			}
			want, err := json.Marshal(&a)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second from the cache
				if got := e.encode(&a); string(got) != string(want) {
					t.Errorf("fork %d of %s:\ngot  %s\nwant %s", a.Fork, a.Run.Key, got, want)
				}
			}
		}
	}
}
