package worker

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
)

// TestForkOutputIsBoundedAtTheSource: the worker cuts a failure's text
// to protocol.MaxTextBytes before it sends it (a b.Fatalf of 50 MB cost
// the parent a gigabyte), and refuses a non-finite metric with a message
// that names the metric and the benchmark, not encoding's "json:
// unsupported value: NaN".
func TestForkOutputIsBoundedAtTheSource(t *testing.T) {
	a := &protocol.Assignment{Run: protocol.Run{Key: "pkg.BenchmarkX:avgt"}}
	m := &protocol.Message{Type: protocol.MsgError, Error: strings.Repeat("é", 1<<20)}
	if err := vetMessage(a, m); err != nil {
		t.Fatal(err)
	}
	if len(m.Error) > protocol.MaxTextBytes+64 || !strings.HasSuffix(m.Error, " bytes]") {
		t.Errorf("error text of %d bytes sent as %d bytes ending %q; want it cut to about %d with a marker", 2<<20, len(m.Error), m.Error[len(m.Error)-40:], protocol.MaxTextBytes)
	}
	it := &protocol.Iteration{Phase: protocol.PhaseMeasurement, Index: 2, Metrics: map[string]float64{"ok/op": 1, "bad/op": math.NaN()}}
	err := vetMessage(a, &protocol.Message{Type: protocol.MsgIteration, Iteration: it})
	want := `benchmark pkg.BenchmarkX:avgt reported metric "bad/op" as NaN in measurement iteration 2: a metric must be a finite number`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NaN metric: %v; want %q", err, want)
	}
	err = vetMessage(a, &protocol.Message{Type: protocol.MsgDone, Metrics: map[string]float64{"x/op": math.Inf(-1)}})
	if err == nil || !strings.Contains(err.Error(), `"x/op" as -Inf in the fork's metrics`) {
		t.Errorf("-Inf fork metric: %v", err)
	}
}

// TestForkSendsOneMemberPartPerMember: an iteration of a group's fork
// carries one part per member of its run, any other none.
func TestForkSendsOneMemberPartPerMember(t *testing.T) {
	group := &protocol.Assignment{Run: protocol.Run{Key: "rw:thrpt", Group: []protocol.Member{{Name: "write", Threads: 1}, {Name: "read", Threads: 3}}}}
	plain := &protocol.Assignment{Run: protocol.Run{Key: "x:thrpt"}}
	two := []protocol.Iteration{{}, {}}
	for _, tc := range []struct {
		a       *protocol.Assignment
		members []protocol.Iteration
		want    string
	}{
		{group, two, ""},
		{group, two[:1], "benchmark rw:thrpt: measurement iteration 1 has 1 members' parts, where its run has 2 members"},
		{plain, nil, ""},
		{plain, two, "benchmark x:thrpt: measurement iteration 1 has 2 members' parts, where its run has 0 members"},
	} {
		it := &protocol.Iteration{Phase: protocol.PhaseMeasurement, Index: 1, Members: tc.members}
		err := vetMessage(tc.a, &protocol.Message{Type: protocol.MsgIteration, Iteration: it})
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%s with %d parts: %v, want %q", tc.a.Run.Key, len(tc.members), err, tc.want)
		}
	}
}
