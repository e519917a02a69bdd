package worker

import (
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
