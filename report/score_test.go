package report

import (
	"math"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

func TestIterationScore(t *testing.T) {
	samples := &hist.Snapshot{Count: 4, Sum: 10, Min: 1, Max: 4}
	for _, tc := range []struct {
		mode     spec.Mode
		unit     string
		it       protocol.Iteration
		want     float64
		wantUnit string
	}{
		// 1e6 ops in 1 s: 1e-3 ops/ns.
		{"thrpt", "ns", protocol.Iteration{Ops: 1e6, TimeNs: 1e9}, 1e-3, "ops/ns"},
		{"thrpt", "us", protocol.Iteration{Ops: 1e6, TimeNs: 1e9}, 1, "ops/us"},
		{"thrpt", "ms", protocol.Iteration{Ops: 1e6, TimeNs: 1e9}, 1e3, "ops/ms"},
		{"thrpt", "s", protocol.Iteration{Ops: 1e6, TimeNs: 1e9}, 1e6, "ops/s"},
		// the integer-division trap: 3 ops in 2 ns is 1.5 ops/ns, not 1
		{"thrpt", "ns", protocol.Iteration{Ops: 3, TimeNs: 2}, 1.5, "ops/ns"},
		// 1e6 ops in 2 s: 2000 ns/op.
		{"avgt", "ns", protocol.Iteration{Ops: 1e6, TimeNs: 2e9}, 2000, "ns/op"},
		{"avgt", "us", protocol.Iteration{Ops: 1e6, TimeNs: 2e9}, 2, "us/op"},
		{"avgt", "ms", protocol.Iteration{Ops: 1e6, TimeNs: 2e9}, 2e-3, "ms/op"},
		{"avgt", "s", protocol.Iteration{Ops: 1e6, TimeNs: 2e9}, 2e-6, "s/op"},
		{"avgt", "ns", protocol.Iteration{Ops: 2, TimeNs: 3}, 1.5, "ns/op"},
		// one timed batch of 1000 ops in 1.5 ms
		{"ss", "us", protocol.Iteration{Ops: 1000, TimeNs: 1.5e6}, 1.5, "us/op"},
		{"ss", "ms", protocol.Iteration{Ops: 1, TimeNs: 1.5e6}, 1.5, "ms/op"},
		// sample: the exact mean of the samples, not TimeNs/Ops
		{"sample", "ns", protocol.Iteration{Ops: 99, TimeNs: 99, Histogram: samples}, 2.5, "ns/op"},
		{"sample", "us", protocol.Iteration{Ops: 4, TimeNs: 10, Histogram: samples}, 2.5e-3, "us/op"},
		{"sample", "ns", protocol.Iteration{Ops: 4, TimeNs: 10}, 2.5, "ns/op"},
		// undefined: NaN, never Inf or 0
		{"avgt", "ns", protocol.Iteration{Ops: 0, TimeNs: 10}, math.NaN(), "ns/op"},
		{"thrpt", "ns", protocol.Iteration{Ops: 10, TimeNs: 0}, math.NaN(), "ops/ns"},
		{"avgt", "min", protocol.Iteration{Ops: 1, TimeNs: 10}, math.NaN(), "min/op"},
	} {
		r := &plan.Run{Mode: tc.mode, Settings: spec.Settings{TimeUnit: tc.unit}}
		if got := IterationScore(r, &tc.it); !near(got, tc.want, 1e-12) {
			t.Errorf("IterationScore(%s %s, %+v) = %v, want %v", tc.mode, tc.unit, tc.it, got, tc.want)
		}
		if got := tc.mode.Unit(tc.unit); got != tc.wantUnit {
			t.Errorf("%s.Unit(%s) = %q, want %q", tc.mode, tc.unit, got, tc.wantUnit)
		}
	}
}
