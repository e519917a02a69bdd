package format

import (
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
)

// TestComparisonWritesScoresAsTheTables: a side's score and error read
// as the report's table writes them (Score, Error), so a throughput of
// 1e-5 ops/ns is not "0.000 ± 0.000".
func TestComparisonWritesScoresAsTheTables(t *testing.T) {
	for _, c := range [][2]float64{{1.05e-5, 8.98e-5}, {0.000123, 0.0000012}, {12.3456, 0.01234}, {0, 0}, {1234567, 0.0001}, {-3.4e-4, 1e-4}, {1.5e-13, 2e-14}, {2e15, 1}} {
		s := compare.Side{Status: report.StatusOK, Score: report.Float(c[0]), Error: report.Float(c[1])}
		res := &compare.Result{Pairs: []compare.Pair{{Run: compare.Run{Benchmark: "b", Mode: "avgt"}, Base: s, New: s}}}
		var b strings.Builder
		if err := (Text{}).Comparison(&b, res); err != nil {
			t.Fatal(err)
		}
		want := Score(s.Score) + " ± " + Error(s.Error, s.Score)
		if !strings.Contains(b.String(), "  "+want+"  ") {
			t.Errorf("%g ± %g: no cell %q as the tables write it:\n%s", c[0], c[1], want, b.String())
		}
	}
	if got := side(compare.Side{Status: report.StatusOK, Score: 1.05e-5, Error: report.NaN()}); got != "1.05e-05" {
		t.Errorf("side(1.05e-5) = %q, want 1.05e-05", got)
	}
}
