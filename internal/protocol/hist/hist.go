// Package hist is a log-bucketed histogram for sample-mode timings.
//
// Values are bucketed so that every value is represented within a relative
// error of Alpha (0.1 %), as in DDSketch: bucket k holds the values in
// (γ^(k-1), γ^k] with γ = (1+α)/(1-α), and is represented by 2γ^k/(γ+1).
// Memory depends on the spread of the values, never on their number: from
// 1 ns to 1 h (≈ 3.6·10¹² ns) there are at most about 14 600 buckets.
// Count, sum, min and max are kept exactly, so the mean is exact.
package hist

import (
	"math"
	"sort"
)

// Alpha is the histogram's relative precision.
const Alpha = 0.001

var gamma = (1 + Alpha) / (1 - Alpha)

// logGamma is math.Log(gamma), written out (TestLogGamma checks it):
// computed, it would be set by package initialisation, which every fork
// runs.
const logGamma = 0.0020000006666670215

// Histogram counts non-negative values. The zero value is empty and ready.
type Histogram struct {
	offset int      // bucket index of counts[0]
	counts []uint64 // dense from the lowest to the highest bucket seen
	zero   uint64   // values <= minValue
	n      uint64
	sum    float64
	min    float64
	max    float64
}

// minValue is the smallest value given its own bucket; smaller ones
// (including 0, which a coarse clock produces) count as zero.
const minValue = 1e-9

// Record adds one value.
func (h *Histogram) Record(v float64) { h.RecordN(v, 1) }

// RecordN adds value v n times.
func (h *Histogram) RecordN(v float64, n uint64) {
	if n == 0 || math.IsNaN(v) {
		return
	}
	if v < 0 {
		v = 0
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if h.n == 0 || v > h.max {
		h.max = v
	}
	h.n += n
	h.sum += v * float64(n)
	if v <= minValue {
		h.zero += n
		return
	}
	k := bucketOf(v)
	switch {
	case len(h.counts) == 0:
		h.offset = k
		h.counts = make([]uint64, 1, 64)
	case k < h.offset:
		grown := make([]uint64, len(h.counts)+h.offset-k)
		copy(grown[h.offset-k:], h.counts)
		h.counts, h.offset = grown, k
	case k >= h.offset+len(h.counts):
		h.counts = append(h.counts, make([]uint64, k-h.offset-len(h.counts)+1)...)
	}
	h.counts[k-h.offset] += n
}

func bucketOf(v float64) int { return int(math.Ceil(math.Log(v) / logGamma)) }

func valueOf(k int) float64 { return 2 * math.Pow(gamma, float64(k)) / (gamma + 1) }

// Count is the number of values recorded.
func (h *Histogram) Count() uint64 { return h.n }

// Sum is the exact sum of the values recorded.
func (h *Histogram) Sum() float64 { return h.sum }

// Mean is the exact mean, NaN when empty.
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.sum / float64(h.n)
}

// Min and Max are exact; NaN when empty.
func (h *Histogram) Min() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.min
}

// Max is the largest value recorded; NaN when empty.
func (h *Histogram) Max() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.max
}

// Buckets is the number of buckets in use (memory is proportional to the
// spread of the buckets, reported by Span).
func (h *Histogram) Buckets() int {
	b := 0
	for _, c := range h.counts {
		if c != 0 {
			b++
		}
	}
	if h.zero != 0 {
		b++
	}
	return b
}

// Span is the number of counters allocated.
func (h *Histogram) Span() int { return len(h.counts) }

// Merge adds all values of o to h, keeping count, sum, min and max exact.
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.n == 0 {
		return
	}
	n, sum, lo, hi := h.n, h.sum, h.min, h.max
	for _, b := range o.Bins() {
		h.RecordN(b.Value, b.Count)
	}
	h.n, h.sum, h.min, h.max = n+o.n, sum+o.sum, o.min, o.max
	if n != 0 {
		h.min, h.max = math.Min(lo, o.min), math.Max(hi, o.max)
	}
}

// Quantile returns the value at quantile q in [0, 1] (nearest rank), within
// the relative error Alpha; q = 0 and q = 1 give the exact min and max.
// NaN when empty.
func (h *Histogram) Quantile(q float64) float64 {
	if h.n == 0 || math.IsNaN(q) {
		return math.NaN()
	}
	if q <= 0 {
		return h.min
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(math.Ceil(q * float64(h.n))) // 1-based nearest rank
	if rank < 1 {
		rank = 1
	}
	seen := h.zero
	if seen >= rank {
		return h.min
	}
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return math.Min(math.Max(valueOf(h.offset+i), h.min), h.max)
		}
	}
	return h.max
}

// Bin is one bucket: its representative value and count.
type Bin struct {
	Value float64 `json:"value"`
	Count uint64  `json:"count"`
}

// Bins returns the non-empty buckets in increasing order of value.
func (h *Histogram) Bins() []Bin {
	var out []Bin
	if h.zero != 0 {
		out = append(out, Bin{0, h.zero})
	}
	for i, c := range h.counts {
		if c != 0 {
			out = append(out, Bin{valueOf(h.offset + i), c})
		}
	}
	return out
}

// Snapshot is the serialisable form of a histogram.
type Snapshot struct {
	Count uint64  `json:"count"`
	Sum   float64 `json:"sum"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Bins  []Bin   `json:"bins"`
}

// Snapshot returns h as plain data.
func (h *Histogram) Snapshot() Snapshot {
	return Snapshot{Count: h.n, Sum: h.sum, Min: h.min, Max: h.max, Bins: h.Bins()}
}

// FromSnapshot rebuilds a histogram from its snapshot.
func FromSnapshot(s Snapshot) *Histogram {
	h := &Histogram{}
	bins := append([]Bin(nil), s.Bins...)
	sort.Slice(bins, func(i, j int) bool { return bins[i].Value < bins[j].Value })
	for _, b := range bins {
		h.RecordN(b.Value, b.Count)
	}
	if h.n != 0 {
		h.sum, h.min, h.max = s.Sum, s.Min, s.Max
	}
	return h
}
