package report

import (
	"math"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// near reports whether got is within rel (relative) of want; NaN matches NaN.
func near(got, want, rel float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-12)
}

func TestMetricOf(t *testing.T) {
	nan := math.NaN()
	type want struct {
		count                       int
		score, err, stdev, min, max float64
		p50, p90                    float64
		iterErr                     float64
	}
	for _, tc := range []struct {
		name string
		raw  [][]float64
		want want
	}{
		// Iterations: mean 3, s = √2.5 = 1.581139, t(0.9995,4) = 8.610302 →
		// 8.610302·1.581139/√5 = 6.088403. One fork: no fork-level error.
		{"one fork 1..5", [][]float64{{1, 2, 3, 4, 5}}, want{5, 3, nan, 1.581139, 1, 5, 3, 5, 6.088403}},
		// Fork means 1.5 and 4: s = 2.5/√2, t(0.9995,1) = 636.619 → 636.619·2.5/2 = 795.774
		{"two forks 1..5", [][]float64{{1, 2}, {3, 4, 5}}, want{5, 3, 795.774, 1.581139, 1, 5, 3, 5, 6.088403}},
		// Iterations: mean 12, s = √(10/5) = 1.414214, t(0.9995,5) = 6.868827 →
		// 6.868827·1.414214/√6 = 3.965719. Fork means 11, 13: 636.619·√2/√2.
		{"fixture's avgt", [][]float64{{10, 11, 12}, {12, 13, 14}}, want{6, 12, 636.619, 1.414214, 10, 14, 12, 14, 3.965719}},
		// Fork means 2, 3, 4: s = 1, t(0.9995,2) = 31.5991 → 31.5991/√3 = 18.2437
		{"three forks", [][]float64{{1, 2, 3}, {2, 3, 4}, {3, 4, 5}}, want{9, 3, 18.243723, 1.224745, 1, 5, 3, 5, 2.058114}},
		{"constant", [][]float64{{2, 2, 2}}, want{3, 2, nan, 0, 2, 2, 2, 2, 0}},
		{"constant forks", [][]float64{{2, 2}, {2, 2}}, want{4, 2, 0, 0, 2, 2, 2, 2, 0}},
		{"single", [][]float64{{42}}, want{1, 42, nan, nan, 42, 42, 42, 42, nan}},
		{"empty", [][]float64{{}}, want{0, nan, nan, nan, nan, nan, nan, nan, nan}},
		{"infinite iteration", [][]float64{{1, math.Inf(1)}}, want{2, nan, nan, nan, nan, nan, nan, nan, nan}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := metricOf(tc.raw, "ns/op")
			got := want{m.Count, float64(m.Score), float64(m.ScoreError), float64(m.Stdev), float64(m.Min),
				float64(m.Max), float64(m.Percentiles["50.0"]), float64(m.Percentiles["90.0"]), float64(m.IterationError)}
			w := tc.want
			if got.count != w.count || !near(got.score, w.score, 1e-9) || !near(got.err, w.err, 1e-5) || !near(got.iterErr, w.iterErr, 1e-5) ||
				!near(got.stdev, w.stdev, 1e-6) || !near(got.min, w.min, 0) || !near(got.max, w.max, 0) ||
				!near(got.p50, w.p50, 1e-12) || !near(got.p90, w.p90, 1e-12) {
				t.Errorf("metricOf(%v) = %+v, want %+v", tc.raw, got, w)
			}
			lo, hi := float64(m.ScoreConfidence[0]), float64(m.ScoreConfidence[1])
			if !near(lo, w.score-w.err, 1e-6) || !near(hi, w.score+w.err, 1e-6) {
				t.Errorf("confidence = [%v, %v], want [%v, %v]", lo, hi, w.score-w.err, w.score+w.err)
			}
			if len(m.RawData) != len(tc.raw) || len(m.Percentiles) != len(percentiles) {
				t.Errorf("raw data %v and %d percentiles, want %d forks and %d", m.RawData, len(m.Percentiles), len(tc.raw), len(percentiles))
			}
		})
	}
}

func TestMetricOfHist(t *testing.T) {
	// The integers 1..1000 ns once each, reported in us: mean 0.5005 exactly,
	// stdev √((1000²-1)/12) = 288.675 ns, nearest-rank percentiles.
	h := &hist.Histogram{}
	for v := 1000; v >= 1; v-- {
		h.Record(float64(v))
	}
	m := metricOfHist(h, 1e3, "us/op", [][]float64{{0.5005}})
	if m.Count != 1000 || float64(m.Score) != 0.5005 || m.Min != 0.001 || m.Max != 1 {
		t.Errorf("count, score, min, max = %d, %v, %v, %v; want 1000, 0.5005, 0.001, 1", m.Count, m.Score, m.Min, m.Max)
	}
	if !near(float64(m.Stdev), 0.288675, 1e-3) {
		t.Errorf("stdev = %v, want 0.288675 (within the histogram's precision)", m.Stdev)
	}
	// t(0.9995, 999) = 3.30028
	if want := 3.30028 * 0.288675 / math.Sqrt(1000); !near(float64(m.IterationError), want, 1e-3) {
		t.Errorf("iteration error = %v, want %v", m.IterationError, want)
	}
	if m.ScoreError.Valid() {
		t.Errorf("error of one fork = %v, want none", m.ScoreError)
	}
	for key, want := range map[string]float64{"0.0": 0.001, "50.0": 0.5, "90.0": 0.9, "95.0": 0.95,
		"99.0": 0.99, "99.9": 0.999, "99.99": 1, "100.0": 1} {
		if got := float64(m.Percentiles[key]); !near(got, want, hist.Alpha) {
			t.Errorf("percentile %s = %v, want %v", key, got, want)
		}
	}
	if m.Histogram == nil || m.Histogram.Count != 1000 || len(m.Histogram.Bins) == 0 || float64(m.Histogram.Sum) != 500.5 {
		t.Fatalf("histogram = %+v, want 1000 samples summing to 500.5 us", m.Histogram)
	}
	var n uint64
	for _, b := range m.Histogram.Bins {
		n += b.Count
	}
	if n != 1000 {
		t.Errorf("bins hold %d samples, want 1000", n)
	}
}
