package hist

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

func TestQuantilesWithinAlpha(t *testing.T) {
	var h Histogram
	for v := 1; v <= 1000; v++ {
		h.Record(float64(v))
	}
	for _, tc := range []struct{ q, want float64 }{
		{0, 1}, {0.5, 500}, {0.9, 900}, {0.99, 990}, {0.999, 999}, {1, 1000},
	} {
		got := h.Quantile(tc.q)
		if math.Abs(got-tc.want) > tc.want*Alpha {
			t.Errorf("q%v = %v, want %v within %.1f%%", tc.q, got, tc.want, Alpha*100)
		}
	}
	if h.Mean() != 500.5 || h.Count() != 1000 || h.Min() != 1 || h.Max() != 1000 {
		t.Errorf("mean %v count %d min %v max %v", h.Mean(), h.Count(), h.Min(), h.Max())
	}
}

func TestZeroAndEmpty(t *testing.T) {
	var h Histogram
	if !math.IsNaN(h.Mean()) || !math.IsNaN(h.Quantile(0.5)) {
		t.Error("an empty histogram must answer NaN")
	}
	h.Record(0) // a coarse clock's zero-length interval
	h.Record(0)
	h.Record(10)
	if h.Quantile(0.5) != 0 || h.Quantile(1) != 10 || h.Buckets() != 2 {
		t.Errorf("median %v max %v buckets %d", h.Quantile(0.5), h.Quantile(1), h.Buckets())
	}
}

func TestMergeAndSnapshotKeepExactStatistics(t *testing.T) {
	var a, b Histogram
	for i := 1; i <= 100; i++ {
		a.Record(float64(i) * 1.37)
		b.Record(float64(i) * 1000.11)
	}
	m := FromSnapshot(a.Snapshot())
	m.Merge(FromSnapshot(b.Snapshot()))
	if m.Count() != 200 || m.Sum() != a.Sum()+b.Sum() || m.Min() != a.Min() || m.Max() != b.Max() {
		t.Errorf("merged: n=%d sum=%v min=%v max=%v", m.Count(), m.Sum(), m.Min(), m.Max())
	}
}

// TestMemoryIsBoundedBySpread records 10⁷ samples spread over six decades
// (1 ns to 1 ms) and checks the counters fit in well under 1 MiB: memory
// grows with the spread of the values, never with their number.
func TestMemoryIsBoundedBySpread(t *testing.T) {
	var h Histogram
	r := rand.New(rand.NewPCG(1, 2))
	for range 10_000_000 {
		h.Record(math.Pow(10, 6*r.Float64()))
	}
	bytes := h.Span() * int(unsafe.Sizeof(uint64(0)))
	if h.Count() != 10_000_000 || bytes > 1<<20 {
		t.Errorf("%d samples in %d counters (%d bytes), want ≤ 1 MiB", h.Count(), h.Span(), bytes)
	}
	t.Logf("10⁷ samples over 1 ns–1 ms: %d counters, %d KiB", h.Span(), bytes>>10)
}

// TestLogGamma checks the constant logGamma against what it stands for.
func TestLogGamma(t *testing.T) {
	if got := math.Log(gamma); got != logGamma {
		t.Errorf("math.Log(gamma) = %v, logGamma = %v", got, float64(logGamma))
	}
}
