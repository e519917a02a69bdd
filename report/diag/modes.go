package diag

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/spec"
)

// mass is a weight spread evenly over [lo, hi] (a point when lo == hi): an
// iteration score, or a bucket of the sample histogram.
type mass struct{ lo, hi, w float64 }

func (m mass) mid() float64 { return (m.lo + m.hi) / 2 }

// modality is the result of mvalue: the mvalue and the modes of the
// histogram that gave it.
type modality struct {
	mvalue float64
	modes  []float64 // bin centres of the peaks, highest first
}

// mvalue is BenchmarkDotNet's multimodality measure (after Brendan
// Gregg): over histograms of doubling bin width, until one bin holds
// everything, the largest sum of the absolute steps between neighbouring
// bin counts (with an empty bin at each end) divided by the highest
// count. One mode gives 2, two separated modes 4. Outliers beyond Tukey's
// fences are left out first, as BenchmarkDotNet does; minWidth keeps bins
// wider than the quantum of the data (the clock's resolution).
//
// Fixed-width bins are noisy where BenchmarkDotNet's adaptive histogram
// is not, so three changes keep sound data quiet (checked by simulation,
// 1000 samples each of n = 20…5000 normal, lognormal and exponential
// values: none reaches 3.2, while two equal modes 6σ apart do in 57 % of
// samples at n = 40 and in all at n ≥ 300): the first width is 0.35 ×
// Scott's rule (3.5σ/n^⅓); each width's mvalue is the mean over eight
// shifts of the bins' origin, so that no alignment splits a mode; and a
// width counts only with the smaller of its mvalue and the next width's,
// so that a mode must show at two widths.
func mvalue(ms []mass, minWidth float64) modality {
	const shifts = 8
	ms = withoutOutliers(ms)
	var n, sum float64
	for _, m := range ms {
		n += m.w
		sum += m.w * m.mid()
	}
	if n < 2 {
		return modality{mvalue: 2}
	}
	mean := sum / n
	var ss float64
	for _, m := range ms {
		d := m.mid() - mean
		ss += m.w * d * d
	}
	sd := math.Sqrt(ss / (n - 1))
	lo, hi := ms[0].lo, ms[0].hi
	for _, m := range ms {
		lo, hi = math.Min(lo, m.lo), math.Max(hi, m.hi)
	}
	width := math.Max(0.35*3.5*sd/math.Cbrt(n), minWidth)
	if !(width > 0) || hi <= lo {
		return modality{mvalue: 2, modes: []float64{mean}}
	}
	var levels []modality
	for {
		var m float64
		var best []float64
		for s := range shifts {
			counts, sums := binned(ms, lo-width*float64(s)/shifts, width)
			m += stepSum(counts) / shifts
			if s == 0 {
				best = peaks(counts, sums)
			}
		}
		levels = append(levels, modality{mvalue: m, modes: best})
		if width > hi-lo {
			break
		}
		width *= 2
	}
	out := modality{}
	for i, l := range levels {
		if i+1 < len(levels) {
			l.mvalue = math.Min(l.mvalue, levels[i+1].mvalue)
		}
		if l.mvalue > out.mvalue {
			out = l
		}
	}
	return out
}

// withoutOutliers drops the masses beyond Tukey's fences (1.5 IQR beyond
// the weighted quartiles).
func withoutOutliers(ms []mass) []mass {
	s := slices.Clone(ms)
	slices.SortFunc(s, func(a, b mass) int { return cmpFloat(a.mid(), b.mid()) })
	q1, q3 := weightedQuantile(s, 0.25), weightedQuantile(s, 0.75)
	lo, hi := q1-1.5*(q3-q1), q3+1.5*(q3-q1)
	return slices.DeleteFunc(s, func(m mass) bool { return m.mid() < lo || m.mid() > hi })
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// weightedQuantile is the value below which fraction p of the weight of
// sorted masses lies (the lowest such mass midpoint).
func weightedQuantile(s []mass, p float64) float64 {
	var total float64
	for _, m := range s {
		total += m.w
	}
	var acc float64
	for _, m := range s {
		acc += m.w
		if acc >= p*total {
			return m.mid()
		}
	}
	return s[len(s)-1].mid()
}

// binned spreads the masses over bins [lo + i·width, lo + (i+1)·width)
// and returns each bin's weight and weighted sum of midpoints.
func binned(ms []mass, lo, width float64) (counts, sums []float64) {
	add := func(i int, w, at float64) {
		for len(counts) <= i {
			counts, sums = append(counts, 0), append(sums, 0)
		}
		counts[i] += w
		sums[i] += w * at
	}
	for _, m := range ms {
		a, b := (m.lo-lo)/width, (m.hi-lo)/width
		if b-a < 1e-12 {
			add(int(a), m.w, m.mid())
			continue
		}
		for i := int(a); float64(i) < b; i++ {
			overlap := math.Min(b, float64(i+1)) - math.Max(a, float64(i))
			add(i, m.w*overlap/(b-a), m.mid())
		}
	}
	return counts, sums
}

// stepSum is Σ|c[i]-c[i-1]| / max(c) with an empty bin at each end.
func stepSum(counts []float64) float64 {
	var sum, top, prev float64
	for _, c := range counts {
		sum += math.Abs(c - prev)
		top = math.Max(top, c)
		prev = c
	}
	sum += prev
	if top == 0 {
		return 0
	}
	return sum / top
}

// prominence is how far the histogram must drop between a peak and any
// higher one, as a fraction of the peak, for the peak to count as a mode.
const prominence = 0.25

// peaks returns the modes of a histogram: where the runs of bins higher
// than both their neighbours are (the mean of the values in the run),
// highest first, keeping only the peaks that are prominent — separated
// from every higher peak by a valley at least a quarter below them — so
// that the noise of a fixed-width histogram adds no modes.
func peaks(counts, sums []float64) []float64 {
	type peak struct {
		i, j      int // the run of bins
		at, count float64
	}
	var ps []peak
	for i := 0; i < len(counts); {
		j := i
		for j+1 < len(counts) && counts[j+1] == counts[i] {
			j++
		}
		left, right := 0.0, 0.0
		if i > 0 {
			left = counts[i-1]
		}
		if j+1 < len(counts) {
			right = counts[j+1]
		}
		if counts[i] > left && counts[i] > right {
			var w, sum float64
			for k := i; k <= j; k++ {
				w, sum = w+counts[k], sum+sums[k]
			}
			ps = append(ps, peak{i, j, sum / w, counts[i]})
		}
		i = j + 1
	}
	slices.SortStableFunc(ps, func(a, b peak) int { return cmpFloat(b.count, a.count) })
	var kept []peak
	for _, p := range ps {
		prominent := true
		for _, q := range kept {
			lo, hi := min(p.j, q.j)+1, max(p.i, q.i)
			if hi-lo < 1 || slices.Min(counts[lo:hi]) > (1-prominence)*p.count {
				prominent = false
				break
			}
		}
		if prominent {
			kept = append(kept, p)
		}
	}
	out := make([]float64, len(kept))
	for i, p := range kept {
		out[i] = p.at
	}
	return out
}

// multimodal fires when the distribution has several modes: sample mode's
// histogram, or the iteration scores when there are enough of them.
func multimodal(in *Input, th spec.DiagSettings, forksDisagree bool) []Diagnostic {
	if forksDisagree {
		return nil
	}
	var ms []mass
	var minWidth float64
	what := "iteration scores"
	if in.Mode.Samples() && in.Samples != nil && in.Samples.Count() > 0 && in.UnitNs > 0 {
		what = "samples"
		ms = histMasses(in.Samples, in.UnitNs)
		res, _ := clockCost(in.Forks)
		if res > 0 {
			minWidth = res / float64(max(in.Settings.OpsPerInvocation, 1)) / in.UnitNs
		}
	} else {
		all := pooled(in.Scores)
		if len(all) < th.MultimodalMinValues || !finite(all) {
			return nil
		}
		for _, x := range all {
			ms = append(ms, mass{x, x, 1})
		}
	}
	mod := mvalue(ms, minWidth)
	if mod.mvalue < th.MultimodalMValue || len(mod.modes) < 2 {
		return nil
	}
	// The two highest modes must lie far enough apart to matter: close
	// modes (a core clocking a few per cent faster for a while) describe
	// the calls no worse than their mean does.
	mean := 0.0
	var w float64
	for _, m := range ms {
		mean, w = mean+m.w*m.mid(), w+m.w
	}
	mean /= w
	sep := math.Abs(mod.modes[0]-mod.modes[1]) / math.Abs(mean)
	if !(sep > th.MultimodalSeparation) {
		return nil
	}
	kind := "bimodal"
	if mod.mvalue >= 4.2 {
		kind = "multimodal"
	}
	modes := mod.modes[:min(len(mod.modes), 4)]
	ev := map[string]float64{"mvalue": mod.mvalue, "modes": float64(len(mod.modes)), "separation": sep}
	for i, m := range modes {
		ev["mode_"+strconv.Itoa(i+1)] = m
	}
	return []Diagnostic{{
		Code:     Multimodal,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("the %s look %s: mvalue %s (2 is one mode, 4 two; at least %s fires), with modes near %s %s, the highest two %s of the mean apart. "+
			"The mean lies between them and describes no real call: look at the distribution and find what switches between the modes (GC, a cache that fits or not, the input, the core)",
			what, kind, num(mod.mvalue), num(th.MultimodalMValue), list(modes, num), in.Unit, pct(sep)),
		Evidence: ev,
	}}
}

// histMasses turns the sample histogram (ns per op) into masses in the
// score's unit, each bucket spread over its width.
func histMasses(h *hist.Histogram, unitNs float64) []mass {
	bins := h.Bins()
	ms := make([]mass, len(bins))
	for i, b := range bins {
		v := b.Value / unitNs
		ms[i] = mass{v * (1 - hist.Alpha), v * (1 + hist.Alpha), float64(b.Count)}
	}
	return ms
}
