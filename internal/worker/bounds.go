package worker

import (
	"fmt"
	"math"
	"sort"

	"github.com/benchspec/benchspec/internal/protocol"
)

// MetricError is a metric that no report can hold: not a finite number
// (a go test body's b.ReportMetric(NaN, …), which testing accepts).
// Without this check the fork failed with encoding's "json: unsupported
// value: NaN", naming neither the metric nor the benchmark.
type MetricError struct {
	Benchmark, Unit string
	Value           float64
	Where           string // "measurement iteration 2", "the fork's metrics"
}

func (e *MetricError) Error() string {
	return fmt.Sprintf("benchmark %s reported metric %q as %v in %s: a metric must be a finite number (b.ReportMetric)", e.Benchmark, e.Unit, e.Value, e.Where)
}

// vetMessage makes m fit what the parent accepts before it is sent: its
// texts cut to protocol.MaxTextBytes, its metrics finite (else a
// *MetricError), an iteration's members one per member of a group's run
// (none otherwise).
func vetMessage(a *protocol.Assignment, m *protocol.Message) error {
	m.Error = protocol.Truncate(m.Error, protocol.MaxTextBytes)
	m.Skip = protocol.Truncate(m.Skip, protocol.MaxTextBytes)
	metrics, where := m.Metrics, "the fork's metrics"
	if it := m.Iteration; it != nil {
		metrics, where = it.Metrics, fmt.Sprintf("%s iteration %d", it.Phase, it.Index)
		if len(it.Members) != len(a.Run.Group) {
			return fmt.Errorf("benchmark %s: %s has %d members' parts, where its run has %d members", a.Run.Key, where, len(it.Members), len(a.Run.Group))
		}
	}
	var bad []string
	for unit, v := range metrics {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, unit)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad) // the same one named every time
	return &MetricError{Benchmark: a.Run.Key, Unit: bad[0], Value: metrics[bad[0]], Where: where}
}
