package report

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/report/stats"
)

// Confidence is the level of every score error and confidence interval.
const Confidence = stats.Confidence

// DefaultTargetError is the relative half-width that Variance.ForksNeeded
// aims at when the run's spec sets no precision: ±1 %.
const DefaultTargetError = 0.01

// Quantile is one of the percentiles a metric reports: its quantile Q,
// its Key in Metric.Percentiles and its Name as a sample-mode secondary
// metric.
type Quantile struct {
	Q    float64
	Key  string
	Name string
}

// Quantiles returns the percentiles every metric reports, lowest first.
func Quantiles() []Quantile { return slices.Clone(percentiles) }

var percentiles = []Quantile{
	{0, "0.0", "p0.00"},
	{0.5, "50.0", "p0.50"},
	{0.9, "90.0", "p0.90"},
	{0.95, "95.0", "p0.95"},
	{0.99, "99.0", "p0.99"},
	{0.999, "99.9", "p0.999"},
	{0.9999, "99.99", "p0.9999"},
	{1, "100.0", "p1.00"},
}

// IsQuantileName reports whether name is a sample-mode percentile
// secondary metric ("p0.50"), which has no count of its own.
func IsQuantileName(name string) bool {
	for _, p := range percentiles {
		if p.Name == name {
			return true
		}
	}
	return false
}

// metricOf summarises values grouped per fork (the raw data): mean,
// stdev, min, max and percentiles over all of them, JMH's iteration
// error, and the fork-level model (Variance) with the score's error and
// confidence interval, which count forks. A value that is not finite
// makes every statistic NaN (null): the arithmetic went wrong somewhere
// and no summary of it is right. ForksNeeded aims at DefaultTargetError;
// withTarget changes it.
func metricOf(raw [][]float64, unit string) Metric {
	var all []float64
	for _, fork := range raw {
		all = append(all, fork...)
	}
	m := Metric{ScoreUnit: unit, Count: len(all), RawData: make([][]Float, len(raw))}
	for i, fork := range raw {
		m.RawData[i] = floats(fork)
	}
	finite := len(all) > 0
	for _, v := range all {
		finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	if !finite {
		m.fill(math.NaN(), math.NaN(), math.NaN(), math.NaN(), func(float64) float64 { return math.NaN() })
		m.model(stats.Of(nil), DefaultTargetError)
		return m
	}
	model := stats.Of(raw)
	sort.Float64s(all)
	mean, stdev := stat.MeanStdDev(all, nil)
	if len(all) == 1 {
		stdev = math.NaN()
	}
	m.fill(mean, stdev, all[0], all[len(all)-1], func(q float64) float64 { return stats.Percentile(all, 100*q) })
	m.model(model, DefaultTargetError)
	return m
}

// model sets the score's error and confidence interval from the fork
// means, and the Variance, with ForksNeeded aiming at a relative
// half-width of target.
func (m *Metric) model(fm stats.Model, target float64) {
	e := fm.HalfWidth(Confidence)
	m.ScoreError = Float(e)
	m.ScoreConfidence = [2]Float{m.Score - Float(e), m.Score + Float(e)}
	v := &Variance{
		Forks:            fm.Forks,
		ForkMeans:        floats(fm.Means),
		WithinForkStdev:  Float(math.Sqrt(fm.Within)),
		BetweenForkStdev: Float(math.Sqrt(fm.Between)),
		BetweenForkShare: Float(fm.BetweenShare()),
		TargetError:      Float(target),
	}
	if v.ForkMeans == nil {
		v.ForkMeans = []Float{}
	}
	if n, ok := fm.ForksFor(target*math.Abs(float64(m.Score)), Confidence); ok && m.Score.Valid() {
		v.ForksNeeded = &n
	}
	m.Variance = v
}

// withTarget recomputes ForksNeeded for a relative half-width of target.
func (m *Metric) withTarget(target float64) {
	if m.Variance == nil || !(target > 0) {
		return
	}
	m.model(stats.Of(rawFloats(m.RawData)), target)
}

// rawFloats converts raw data back to float64, leaving out values that
// do not exist.
func rawFloats(raw [][]Float) [][]float64 {
	out := make([][]float64, len(raw))
	for i, fork := range raw {
		out[i] = []float64{}
		for _, v := range fork {
			if v.Valid() {
				out[i] = append(out[i], float64(v))
			}
		}
	}
	return out
}

// metricOfHist summarises a sample-mode histogram of per-op times in
// nanoseconds, in unit (nanoseconds per unit, named unitName). The mean,
// min and max are exact; the stdev is computed from the bins.
func metricOfHist(h *hist.Histogram, unit float64, unitName string, raw [][]float64) Metric {
	m := metricOf(raw, unitName)
	m.Count = int(h.Count())
	bins := h.Bins()
	values, weights := make([]float64, len(bins)), make([]float64, len(bins))
	for i, b := range bins {
		values[i], weights[i] = b.Value, float64(b.Count)
	}
	stdev := math.NaN()
	if m.Count > 1 {
		_, stdev = stat.MeanStdDev(values, weights)
	}
	m.fill(h.Mean()/unit, stdev/unit, h.Min()/unit, h.Max()/unit, func(q float64) float64 { return h.Quantile(q) / unit })
	m.Histogram = &Histogram{
		Count: h.Count(),
		Sum:   Float(h.Sum() / unit),
		Min:   Float(h.Min() / unit),
		Max:   Float(h.Max() / unit),
		Bins:  make([]Bin, len(bins)),
	}
	for i, b := range bins {
		m.Histogram.Bins[i] = Bin{Value: Float(b.Value / unit), Count: b.Count}
	}
	return m
}

// fill sets the statistics of m over all its values from their count,
// mean, stdev, min, max and a quantile function, and JMH's iteration
// error; the score's own error (model) counts forks and keeps its
// interval centred on the score set here.
func (m *Metric) fill(mean, stdev, lo, hi float64, quantile func(q float64) float64) {
	m.Score, m.IterationError = Float(mean), Float(stats.HalfWidth(Confidence, stdev, m.Count))
	if m.Variance != nil {
		e := m.ScoreError
		m.ScoreConfidence = [2]Float{m.Score - e, m.Score + e}
	}
	m.Stdev, m.Min, m.Max = Float(stdev), Float(lo), Float(hi)
	m.Percentiles = make(Percentiles, len(percentiles))
	for _, p := range percentiles {
		m.Percentiles[p.Key] = Float(quantile(p.Q))
	}
}

// Quantile is the nearest-rank quantile of the histogram, like
// hist.Histogram.Quantile: the exact min and max at 0 and 1, bin values
// clamped to [Min, Max] in between; NaN when empty.
func (h *Histogram) Quantile(q float64) Float {
	switch {
	case h.Count == 0:
		return NaN()
	case q <= 0:
		return h.Min
	case q >= 1:
		return h.Max
	}
	rank := max(uint64(math.Ceil(q*float64(h.Count))), 1)
	var seen uint64
	for _, b := range h.Bins {
		if seen += b.Count; seen >= rank {
			return Float(math.Min(math.Max(float64(b.Value), float64(h.Min)), float64(h.Max)))
		}
	}
	return h.Max
}
