package diag

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/schemas"
	"github.com/benchspec/benchspec/spec"
)

// The checks are tested with constructed data: each fires on a bad case,
// stays silent on a good one, and honours its thresholds.

const (
	resolutionNs = 20
	overheadNs   = 25
	baselineNs   = 0.25
)

// settings returns avgt-like settings with thresholds d.
func settings(forks int, d spec.DiagSettings) spec.Settings {
	return spec.Settings{
		TimeUnit: "ns", Forks: forks, Diagnostics: d,
		Settings: protocol.Settings{OpsPerInvocation: 1, Threads: 1,
			Warmup:      spec.Iterations{Iterations: 1, Time: time.Second, BatchSize: 1},
			Measurement: spec.Iterations{Iterations: 5, Time: time.Second, BatchSize: 1}},
	}
}

// timedInput returns an avgt (or thrpt, ss) input whose forks measured
// the given ns per call, one slice per fork; ss iterations time one batch
// of batch calls.
func timedInput(mode spec.Mode, batch int, d spec.DiagSettings, perFork ...[]float64) *Input {
	s := settings(len(perFork), d)
	s.Measurement.BatchSize = batch
	in := &Input{Mode: mode, Settings: s, Threads: 1, Unit: "ns/op", UnitNs: 1}
	var all []float64
	for i, ns := range perFork {
		f := protocol.ForkResult{Run: 0, Fork: i + 1, Timer: protocol.TimerCalibration{
			ResolutionNs: resolutionNs, OverheadNs: overheadNs,
			BaselineNs: []float64{baselineNs, baselineNs * 1.02, baselineNs * 0.98, baselineNs, baselineNs * 1.01},
		}}
		var scores []float64
		for j, v := range ns {
			it := protocol.Iteration{Phase: protocol.PhaseMeasurement, Index: j + 1}
			switch mode {
			case spec.ModeSingleShot:
				it.Invocations, it.Ops, it.TimeNs = uint64(batch), 1, v*float64(batch)
			default:
				it.Invocations, it.Ops, it.TimeNs = 1e6, 1e6, v*1e6
			}
			f.Iterations = append(f.Iterations, it)
			score := it.TimeNs / it.Ops
			if mode == spec.ModeThroughput {
				score = 1 / score
			}
			scores = append(scores, score)
		}
		in.Forks = append(in.Forks, f)
		in.Scores = append(in.Scores, scores)
		all = append(all, scores...)
	}
	// As the report passes it: the error counts forks.
	iv := intervalOf(all)
	in.Score, in.Error, in.Count = iv.mean, stats.Of(in.Scores).HalfWidth(stats.Confidence), iv.n
	return in
}

// avgt is timedInput in avgt mode.
func avgt(d spec.DiagSettings, perFork ...[]float64) *Input {
	return timedInput(spec.ModeAverageTime, 1, d, perFork...)
}

// noisy returns n values around mean with relative normal noise sd,
// seeded so that tests are repeatable.
func noisy(seed uint64, n int, mean, sd float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]float64, n)
	for i := range out {
		out[i] = mean * (1 + sd*r.NormFloat64())
	}
	return out
}

// trending returns n values rising by slope (relative) per iteration.
func trending(seed uint64, n int, mean, slope, sd float64) []float64 {
	out := noisy(seed, n, mean, sd)
	for i := range out {
		out[i] += mean * slope * float64(i)
	}
	return out
}

// bimodal returns n values alternating between modes near 100 and 200.
func bimodal(n int) []float64 {
	lo, hi := noisy(1, n/2, 100, 0.01), noisy(2, n/2, 200, 0.005)
	out := make([]float64, 0, n)
	for i := range lo {
		out = append(out, lo[i], hi[i])
	}
	return out
}

// twoModes returns n values alternating between tight modes near a and b.
func twoModes(n int, a, b float64) []float64 {
	lo, hi := noisy(3, n/2, a, 0.003), noisy(4, n/2, b, 0.003)
	out := make([]float64, 0, n)
	for i := range lo {
		out = append(out, lo[i], hi[i])
	}
	return out
}

func codes(ds []Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func TestCheck(t *testing.T) {
	def := spec.DiagSettings{}
	steady := func(seed uint64, mean float64) []float64 { return noisy(seed, 10, mean, 0.01) }
	tight := func(seed uint64, mean float64) []float64 { return noisy(seed, 10, mean, 0.002) }
	tests := []struct {
		name string
		in   *Input
		want []string
	}{
		{"sound", avgt(def, steady(1, 100), steady(2, 100), steady(3, 100)), []string{}},

		{"dead code", avgt(def, steady(1, 0.3), steady(2, 0.3), steady(3, 0.3)), []string{DeadCode}},
		{"smallest real work", avgt(def, steady(1, 1.2), steady(2, 1.2), steady(3, 1.2)), []string{}},
		{"dead code, lower ratio", avgt(spec.DiagSettings{DeadCodeRatio: 1.1}, steady(1, 0.3), steady(2, 0.3), steady(3, 0.3)), []string{}},
		{"dead code in thrpt", timedInput(spec.ModeThroughput, 1, def, steady(1, 0.26), steady(2, 0.26)), []string{DeadCode}},

		{"one call per ss interval", timedInput(spec.ModeSingleShot, 1, def, steady(1, 150), steady(2, 150)), []string{TimerResolution}},
		{"a batch per ss interval", timedInput(spec.ModeSingleShot, 10000, def, steady(1, 150), steady(2, 150), steady(3, 150)), []string{}},
		{"one call per ss interval, lax ratio", timedInput(spec.ModeSingleShot, 1, spec.DiagSettings{TimerRatio: 0.5}, steady(1, 150), steady(2, 150), steady(3, 150)), []string{}},
		// Two forks whose means agree to 0.2 %: t(0.9995, 1) = 636.6 still
		// makes the interval that counts forks wider than the score.
		{"two forks", timedInput(spec.ModeSingleShot, 10000, def, steady(1, 150), steady(2, 150)), []string{TooFewSamples}},

		{"trend", avgt(def, trending(1, 10, 100, 0.05, 0.01), trending(2, 10, 100, 0.05, 0.01)), []string{NotSteady}},
		{"small trend", avgt(def, trending(1, 10, 100, 0.005, 0.001), trending(2, 10, 100, 0.005, 0.001)), []string{}},
		{"small trend, lower slope floor", avgt(spec.DiagSettings{NotSteadySlope: 0.001}, trending(1, 10, 100, 0.005, 0.001), trending(2, 10, 100, 0.005, 0.001)), []string{NotSteady}},
		{"monotone but short", avgt(def, []float64{100, 101, 102, 103}), []string{}},
		{"monotone but short, lax p", avgt(spec.DiagSettings{NotSteadyP: 0.1}, []float64{100, 102, 104, 106}), []string{NotSteady}},

		{"forks disagree", avgt(def, steady(1, 100), steady(2, 100), steady(3, 130)), []string{ForksDisagree}},
		{"forks differ by 3 %", avgt(def, tight(1, 100), tight(2, 100), tight(3, 103)), []string{}},
		{"forks differ by 3 %, lower spread floor", avgt(spec.DiagSettings{ForksDisagreeSpread: 0.01}, tight(1, 100), tight(2, 100), tight(3, 103)), []string{ForksDisagree}},
		{"forks differ by 3 %, higher ratio", avgt(spec.DiagSettings{ForksDisagreeSpread: 0.01, ForksDisagreeRatio: 1e6}, tight(1, 100), tight(2, 100), tight(3, 103)), []string{}},

		{"two modes", avgt(def, bimodal(40)), []string{Multimodal, HighVariance}},
		{"two modes, too few values", avgt(def, bimodal(20)), []string{HighVariance}},
		{"two modes, fewer values needed", avgt(spec.DiagSettings{MultimodalMinValues: 20}, bimodal(20)), []string{Multimodal, HighVariance}},
		{"two modes, higher mvalue", avgt(spec.DiagSettings{MultimodalMValue: 10}, bimodal(40)), []string{HighVariance}},
		{"one mode", avgt(def, noisy(1, 60, 100, 0.03)), []string{}},
		{"two close modes", avgt(def, twoModes(60, 100, 106)), []string{}},
		{"two close modes, lower separation floor", avgt(spec.DiagSettings{MultimodalSeparation: 0.02}, twoModes(60, 100, 106)), []string{Multimodal}},

		// 30 % noise leaves 3 fork means about 10 % apart: the interval is wider
		// than the score too.
		{"high variance", avgt(def, noisy(1, 10, 100, 0.3), noisy(2, 10, 100, 0.3), noisy(3, 10, 100, 0.3)), []string{TooFewSamples, HighVariance}},
		{"high variance, lax cv", avgt(spec.DiagSettings{HighVarianceCV: 0.6}, noisy(1, 10, 100, 0.3), noisy(2, 10, 100, 0.3), noisy(3, 10, 100, 0.3)), []string{TooFewSamples}},
		{"outlier that moves the mean", avgt(def, append(steady(1, 100), 400), steady(2, 100), steady(3, 100)), []string{TooFewSamples, HighVariance}},
		{"outlier that barely moves the mean", avgt(def, append(steady(1, 100), 130), steady(2, 100), steady(3, 100)), []string{}},

		{"two values", avgt(def, []float64{100, 101}), []string{TooFewSamples}},
		{"two dead values", avgt(def, []float64{0.3, 0.3}), []string{TooFewSamples}},
		{"interval wider than the score", avgt(spec.DiagSettings{HighVarianceCV: 10}, []float64{10, 100, 300}), []string{TooFewSamples}},

		{"in process", avgt(def, steady(1, 100)), []string{InProcess}},
		{"in process, two values", avgt(def, []float64{100, 101}), []string{InProcess, TooFewSamples}},

		{"ignored", avgt(spec.DiagSettings{Ignore: []string{DeadCode}}, steady(1, 0.3), steady(2, 0.3), steady(3, 0.3)), []string{}},
		{"a trend hides the spread it causes", avgt(def, trending(1, 10, 100, 0.1, 0.01)), []string{NotSteady}},
		{"ignoring the trend shows the spread", avgt(spec.DiagSettings{Ignore: []string{NotSteady}}, trending(1, 10, 100, 0.1, 0.01)), []string{HighVariance}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "in process") {
				tt.in.Settings.Forks = 0
			}
			ds := Check(tt.in)
			if diff := cmp.Diff(tt.want, codes(ds)); diff != "" {
				for _, d := range ds {
					t.Log(d)
				}
				t.Errorf("codes (-want +got):\n%s", diff)
			}
			for _, d := range ds {
				if d.Message == "" || d.Evidence == nil || (d.Severity != SeverityWarning && d.Severity != SeverityInfo) {
					t.Errorf("incomplete diagnostic %+v", d)
				}
			}
		})
	}
}

// Every warning names its remedy and carries its evidence.
func TestEvidenceAndRemedy(t *testing.T) {
	def := spec.DiagSettings{}
	tests := []struct {
		code     string
		in       *Input
		severity string
		remedy   string
		evidence []string
	}{
		{DeadCode, avgt(def, noisy(1, 5, 0.3, 0.01), noisy(2, 5, 0.3, 0.01)), SeverityWarning, "Sink",
			[]string{"call_ns", "call_ci_low", "call_ci_high", "baseline_ns", "baseline_loop_ns", "baseline_mean_ns", "baseline_ci_low", "baseline_ci_high", "ratio", "ratio_fork_1"}},
		{TimerResolution, timedInput(spec.ModeSingleShot, 1, def, noisy(1, 10, 150, 0.01)), SeverityWarning, "batch_size",
			[]string{"interval_ns", "resolution_ns", "overhead_ns", "ratio", "suggested_batch_size"}},
		{NotSteady, avgt(def, trending(1, 10, 100, 0.05, 0.01)), SeverityWarning, "warmup",
			[]string{"slope", "slope_rel", "p_value", "s", "z"}},
		{ForksDisagree, avgt(def, noisy(1, 10, 100, 0.01), noisy(2, 10, 130, 0.01)), SeverityWarning, "more forks",
			[]string{"f", "p_value", "variance_ratio", "spread", "mean_fork_1", "mean_fork_2", "within_stdev", "between_stdev", "between_share", "forks"}},
		{Multimodal, avgt(def, bimodal(40)), SeverityWarning, "distribution",
			[]string{"mvalue", "modes", "mode_1", "mode_2"}},
		{HighVariance, avgt(def, noisy(1, 10, 100, 0.3)), SeverityWarning, "iterations longer",
			[]string{"cv", "robust_cv", "outliers"}},
		{HighVariance, avgt(def, noisy(1, 10, 100, 0.02), noisy(2, 10, 140, 0.02), noisy(3, 10, 100, 0.02), noisy(4, 10, 140, 0.02)), SeverityWarning, "more forks narrow it",
			[]string{"cv", "robust_cv", "between_share"}},
		{HighVariance, avgt(def, append(noisy(1, 10, 100, 0.01), 500)), SeverityInfo, "raw data",
			[]string{"cv", "robust_cv", "outliers", "outlier_shift"}},
		{TooFewSamples, avgt(def, []float64{1, 2}), SeverityWarning, "more measurement iterations",
			[]string{"n", "score", "error"}},
	}
	for _, tt := range tests {
		ds := Check(tt.in)
		i := slices.IndexFunc(ds, func(d Diagnostic) bool { return d.Code == tt.code })
		if i < 0 {
			t.Errorf("no %s among %v for %v", tt.code, codes(ds), tt.in.Scores)
			continue
		}
		d := ds[i]
		if d.Severity != tt.severity {
			t.Errorf("%s: severity %s, want %s", d.Code, d.Severity, tt.severity)
		}
		if !strings.Contains(d.Message, tt.remedy) {
			t.Errorf("%s: message %q does not name the remedy (%q)", d.Code, d.Message, tt.remedy)
		}
		for _, k := range tt.evidence {
			if _, ok := d.Evidence[k]; !ok {
				t.Errorf("%s: evidence %v lacks %q", d.Code, d.Evidence, k)
			}
		}
	}
}

func TestTimerSuggestsABatch(t *testing.T) {
	ds := Check(timedInput(spec.ModeSingleShot, 1, spec.DiagSettings{}, noisy(1, 10, 150, 0.001)))
	if len(ds) != 1 {
		t.Fatalf("got %v", ds)
	}
	// 25 ns of overhead is 1 % of 2500 ns: 16.7 calls of 150 ns, rounded up to 20
	if got := ds[0].Evidence["suggested_batch_size"]; got != 20 {
		t.Errorf("suggested batch size %v, want 20", got)
	}
}

// Sample mode times randomly chosen batches: its timed interval is one
// batch, its dead-code time the batch's time per call without the clock.
func TestSampleMode(t *testing.T) {
	sample := func(perOpNs float64, batch int) *Input {
		s := settings(1, spec.DiagSettings{})
		s.Measurement.BatchSize = batch
		in := &Input{Mode: spec.ModeSampleTime, Settings: s, Threads: 1, Unit: "ns/op", UnitNs: 1}
		h := &hist.Histogram{}
		f := protocol.ForkResult{Fork: 1, Timer: protocol.TimerCalibration{ResolutionNs: resolutionNs, OverheadNs: overheadNs,
			BaselineNs: []float64{baselineNs, baselineNs, baselineNs}}}
		var scores []float64
		for i := range 5 {
			ih := &hist.Histogram{}
			for _, v := range noisy(uint64(i), 200, perOpNs, 0.01) {
				ih.Record(v)
			}
			snap := ih.Snapshot()
			f.Iterations = append(f.Iterations, protocol.Iteration{Phase: protocol.PhaseMeasurement, Index: i + 1,
				Ops: float64(ih.Count()), TimeNs: ih.Sum(), Invocations: ih.Count() * uint64(batch), Histogram: &snap})
			h.Merge(ih)
			scores = append(scores, ih.Mean())
		}
		in.Forks, in.Scores, in.Samples = []protocol.ForkResult{f}, [][]float64{scores}, h
		in.Score, in.Count = h.Mean(), int(h.Count())
		in.Error = intervalOf(scores).half
		return in
	}
	for _, tt := range []struct {
		name    string
		in      *Input
		want    []string
		perCall float64
	}{
		{"one call per sample", sample(150, 1), []string{TimerResolution}, 0},
		{"a batch per sample", sample(150000, 1000), []string{}, 0},
		{"a dead batch per sample", sample(0.3*100000+overheadNs, 100000), []string{DeadCode}, 0.3},
	} {
		ds := Check(tt.in)
		if diff := cmp.Diff(tt.want, codes(ds)); diff != "" {
			t.Errorf("%s: codes (-want +got):\n%s", tt.name, diff)
		}
		if tt.perCall > 0 && len(ds) > 0 && math.Abs(ds[0].Evidence["call_ns"]-tt.perCall) > 0.01 {
			t.Errorf("%s: call_ns %v, want %v (the clock read taken out)", tt.name, ds[0].Evidence["call_ns"], tt.perCall)
		}
	}
}

func TestSampleHistogramModes(t *testing.T) {
	in := &Input{Mode: spec.ModeSampleTime, Settings: settings(1, spec.DiagSettings{}), Threads: 1, Unit: "us/op", UnitNs: 1000}
	h := &hist.Histogram{}
	for _, v := range append(noisy(1, 3000, 10000, 0.02), noisy(2, 3000, 30000, 0.02)...) {
		h.Record(v)
	}
	in.Samples = h
	ds := multimodal(in, in.Settings.Diagnostics.WithDefaults(), false)
	if len(ds) != 1 {
		t.Fatalf("got %v, want one MULTIMODAL", ds)
	}
	ev := ds[0].Evidence
	modes := []float64{ev["mode_1"], ev["mode_2"]}
	slices.Sort(modes)
	if ev["mvalue"] < 3.2 || math.Abs(modes[0]-10) > 1 || math.Abs(modes[1]-30) > 3 {
		t.Errorf("evidence %v, want an mvalue ≥ 3.2 and modes near 10 and 30 us/op", ev)
	}
	if got := multimodal(in, in.Settings.Diagnostics.WithDefaults(), true); got != nil {
		t.Errorf("forks that disagree explain the modes; got %v", got)
	}
}

func TestMannKendall(t *testing.T) {
	tests := []struct {
		name           string
		series         [][]float64
		s, variance, p float64
	}{
		// n = 5 rising: S = 10, Var = 5·4·15/18, Z = 9/√Var
		{"rising", [][]float64{{1, 2, 3, 4, 5}}, 10, 50.0 / 3, 0.02752},
		// ties: the pair (1, 1) counts 0 and takes 2·1·9/18 off the variance
		{"ties", [][]float64{{1, 1, 2}}, 2, 8.0 / 3, 0.5403},
		// seasons add up: two falling forks
		{"two forks", [][]float64{{5, 4, 3, 2, 1}, {5, 4, 3, 2, 1}}, -20, 100.0 / 3, 0.000999},
		{"flat", [][]float64{{3, 3, 3, 3}}, 0, 0, 1},
	}
	for _, tt := range tests {
		got := mannKendall(tt.series)
		if got.s != tt.s || math.Abs(got.variance-tt.variance) > 1e-9 || math.Abs(got.p-tt.p) > 1e-4 {
			t.Errorf("%s: S %v Var %v p %v, want %v %v %v", tt.name, got.s, got.variance, got.p, tt.s, tt.variance, tt.p)
		}
	}
	if got := mannKendall([][]float64{{1, 3, 5, 7}}).slope; got != 2 {
		t.Errorf("Sen's slope %v, want 2", got)
	}
}

// FORKS_DISAGREE reports the between-fork share it measured, the same
// number as the model's, in its evidence and its message.
func TestForksDisagreeShare(t *testing.T) {
	in := avgt(spec.DiagSettings{}, noisy(1, 10, 100, 0.01), noisy(2, 10, 130, 0.01), noisy(3, 10, 100, 0.01))
	ds := Check(in)
	i := slices.IndexFunc(ds, func(d Diagnostic) bool { return d.Code == ForksDisagree })
	if i < 0 {
		t.Fatalf("no %s among %v", ForksDisagree, codes(ds))
	}
	want := stats.Of(in.Scores).BetweenShare()
	got := ds[i].Evidence["between_share"]
	if !(want > 0.9) || math.Abs(got-want) > 1e-12 || !strings.Contains(ds[i].Message, pct(want)+" of the variance lies between forks") {
		t.Errorf("between_share %v, want the model's %v (above 0.9); message: %s", got, want, ds[i].Message)
	}
}

func TestOneWayANOVA(t *testing.T) {
	// FORKS_DISAGREE reads the report's model (report/stats). Means 2 and 5:
	// SSB = 13.5 on 1 df, SSW = 4 on 4 df, F = 13.5, the square of the
	// two-sample t statistic, p = 0.0213.
	a := stats.Of([][]float64{{1, 2, 3}, {4, 5, 6}})
	if math.Abs(a.F-13.5) > 1e-9 || math.Abs(a.P-0.02131) > 1e-4 {
		t.Fatalf("F %v p %v, want 13.5 and 0.0213", a.F, a.P)
	}
	// variance component (MSB − MSW)/n0 = (13.5 − 1)/3 over MSW = 1
	if math.Abs(a.Between/a.Within-12.5/3) > 1e-9 {
		t.Errorf("variance ratio %v, want %v", a.Between/a.Within, 12.5/3)
	}
	if a := stats.Of([][]float64{{1, 2, 3}}); !math.IsNaN(a.P) {
		t.Error("one fork: want no ANOVA")
	}
}

func TestMValue(t *testing.T) {
	one := []mass{}
	for _, v := range noisy(1, 1000, 100, 0.05) {
		one = append(one, mass{v, v, 1})
	}
	two := slices.Clone(one)
	for _, v := range noisy(2, 1000, 200, 0.025) {
		two = append(two, mass{v, v, 1})
	}
	if m := mvalue(one, 0).mvalue; m > 2.8 {
		t.Errorf("one mode: mvalue %v, want about 2", m)
	}
	if m := mvalue(two, 0).mvalue; m < 3.5 {
		t.Errorf("two modes: mvalue %v, want about 4", m)
	}
	if m := mvalue([]mass{{5, 5, 1}, {5, 5, 1}, {5, 5, 1}}, 0).mvalue; m != 2 {
		t.Errorf("constant: mvalue %v, want 2", m)
	}
}

// Noise in a histogram adds no modes: a peak counts only when a valley a
// quarter below it separates it from every higher peak.
func TestPeaksAreProminent(t *testing.T) {
	counts := []float64{2, 10, 9, 9.5, 3, 8, 1}
	sums := make([]float64, len(counts))
	for i, c := range counts {
		sums[i] = c * float64(i)
	}
	if diff := cmp.Diff([]float64{1, 5}, peaks(counts, sums)); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
}

func TestNiceCeil(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{{0.3, 1}, {1, 1}, {1.2, 2}, {16.7, 20}, {20, 20}, {21, 50}, {499, 500}, {501, 1000}} {
		if got := niceCeil(tt.in); got != tt.want {
			t.Errorf("niceCeil(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// The codes are the ones the schemas and docs/diagnostics.md document: a
// spec may ignore exactly the run diagnostics (spec.schema.json's
// diagnostic_code enum); a report carries those and the environment
// checks (result.schema.json's diagnostic code enum), whose description
// explains each; docs/diagnostics.md's tables name each.
func TestCodesAreDocumented(t *testing.T) {
	var specSchema struct {
		Definitions struct {
			DiagnosticCode struct{ Enum []string } `json:"diagnostic_code"`
		}
	}
	var resultSchema struct {
		Definitions struct {
			Diagnostic struct {
				Properties struct {
					Code struct {
						Description string
						Enum        []string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(schemas.Spec, &specSchema); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(schemas.Result, &resultSchema); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	run := sorted(Codes)
	all := sorted(append(slices.Clone(Codes), EnvGovernor, EnvHypervisor, EnvLoad, EnvGOMAXPROCS))
	if diff := cmp.Diff(sorted(specSchema.Definitions.DiagnosticCode.Enum), run); diff != "" {
		t.Errorf("run codes (-spec.schema.json +Codes):\n%s", diff)
	}
	code := resultSchema.Definitions.Diagnostic.Properties.Code
	if diff := cmp.Diff(sorted(code.Enum), all); diff != "" {
		t.Errorf("codes (-result.schema.json +Codes and the environment codes):\n%s", diff)
	}
	for _, c := range all {
		if !strings.Contains(code.Description, c+" (") && !strings.Contains(code.Description, c+",") {
			t.Errorf("result.schema.json: the description of a diagnostic's code does not explain %s", c)
		}
		if !bytes.Contains(doc, []byte("`"+c+"`")) {
			t.Errorf("docs/diagnostics.md does not name `%s`", c)
		}
	}
}

func TestCheckEnv(t *testing.T) {
	tests := []struct {
		name string
		env  Env
		want []string
	}{
		{"quiet dedicated machine", Env{Governors: []string{"performance"}, Load1: 0.1, AvailableCPUs: 8, GOMAXPROCS: []int{8}}, nil},
		{"unknown facts", Env{Load1: math.NaN()}, nil},
		{"powersave", Env{Governors: []string{"performance", "powersave"}, Load1: 0.1, AvailableCPUs: 8}, []string{EnvGovernor}},
		{"hypervisor", Env{Hypervisor: "KVM", Load1: 0.1, AvailableCPUs: 8}, []string{EnvHypervisor}},
		{"half busy", Env{Load1: 4, AvailableCPUs: 8}, []string{EnvLoad}},
		{"busy", Env{Load1: 9, AvailableCPUs: 8}, []string{EnvLoad}},
		{"GOMAXPROCS above the quota", Env{Load1: 0, AvailableCPUs: 1.5, GOMAXPROCS: []int{2, 4, 4}}, []string{EnvGOMAXPROCS}},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range CheckEnv(tt.env) {
			got = append(got, d.Code)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	sev := func(e Env) string { return CheckEnv(e)[0].Severity }
	if sev(Env{Load1: 4, AvailableCPUs: 8}) != SeverityInfo || sev(Env{Load1: 9, AvailableCPUs: 8}) != SeverityWarning {
		t.Error("load: want info when half the CPUs are busy, warning when all are")
	}
	if sev(Env{Hypervisor: "KVM", Load1: math.NaN()}) != SeverityInfo {
		t.Error("hypervisor: want info")
	}
}

// TestTooFewSamplesSaysTheWidth pins the message of an interval wider
// than the score: it names the interval's full width, the number that is
// compared with the score (issue 19: "169 ± 98 ns/op … is wider than the
// score itself" left the reader to double 98).
func TestTooFewSamplesSaysTheWidth(t *testing.T) {
	ds := Check(avgt(spec.DiagSettings{HighVarianceCV: 10}, []float64{10, 100, 300}))
	i := slices.IndexFunc(ds, func(d Diagnostic) bool { return d.Code == TooFewSamples })
	if i < 0 {
		t.Fatalf("no %s among %v", TooFewSamples, codes(ds))
	}
	// One fork: the interval over its iterations, which is too narrow as
	// it is, says so.
	want := "the 99.9 % interval of the score, 137 ± 2708 ns/op = [-2571, 2845] (n = 3, one fork: over its iterations as if independent, too narrow as that is), is 5416 ns/op wide, wider than the score itself; run more measurement iterations or more forks"
	if diff := cmp.Diff(want, ds[i].Message); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

// DEAD_CODE compares each fork with its own empty loop (the loop's cost
// is the process's: the counter.Inc3 measured 1.55 and 3.09 ns
// in two forks of one run), and the median over all iterations of all
// forks decides, so that one odd fork decides nothing either way.
func TestDeadCodePerFork(t *testing.T) {
	withBaselines := func(in *Input, base ...float64) *Input {
		for i := range in.Forks {
			in.Forks[i].Timer.BaselineNs = []float64{base[i], base[i] * 1.01, base[i] * 0.99, base[i] * 20} // one preempted
		}
		return in
	}
	def := spec.DiagSettings{}
	// Real work at 5× its own loop in two forks; the third fork's loop
	// ran slow (1.2 ns) and hides the body.
	alive := withBaselines(avgt(def, noisy(1, 5, 1.55, 0.01), noisy(2, 5, 1.55, 0.01), noisy(3, 5, 1.55, 0.01)), 0.3, 0.3, 1.2)
	for _, d := range Check(alive) {
		if d.Code == DeadCode {
			t.Errorf("real work with one slow-loop fork: %s", d)
		}
	}
	// A dead body at 1.3× each fork's own loop, whatever the loop costs,
	// and one fork disturbed by another process (8×).
	dead := withBaselines(avgt(def, noisy(1, 5, 1.3, 0.01), noisy(2, 5, 0.39, 0.01), noisy(3, 5, 2.4, 0.01)), 1.0, 0.3, 0.3)
	ds := Check(dead)
	if len(ds) == 0 || ds[0].Code != DeadCode {
		t.Fatalf("dead body: %v, want DEAD_CODE", codes(ds))
	}
	want := []float64{1.3, 1.3, 8}
	for i, w := range want {
		if r := ds[0].Evidence["ratio_fork_"+strconv.Itoa(i+1)]; math.Abs(r-w) > 0.05*w {
			t.Errorf("fork %d's ratio to its own baseline = %v, want about %v", i+1, r, w)
		}
	}
	if r := ds[0].Evidence["ratio"]; math.Abs(r-1.3) > 0.05 {
		t.Errorf("median ratio = %v, want about 1.3", r)
	}
}

// The empty loop's cost is each fork's fastest baseline iteration, not
// their median: a spell of interference that slows three of a fork's
// five baseline iterations (here to 1.55×, as a busy sibling CPU does)
// moved the median, and made real work at 3.5× the loop look dead at
// 2.9× (the way counter.Inc1 and Inc2 each drew a false DEAD_CODE at
// 2.9× in an idle seeds run); the fastest iteration is where the spell
// did not reach.
func TestDeadCodeFloorIgnoresASlowSpell(t *testing.T) {
	const floor = 0.29
	spell := []float64{floor * 1.55, floor, floor * 1.56, floor * 1.01, floor * 1.54}
	clean := []float64{floor, floor * 1.01, floor * 1.02, floor, floor * 1.01}
	withSpell := func(in *Input) *Input {
		in.Forks[0].Timer.BaselineNs, in.Forks[0].Timer.BaselineInvocationsNs = spell, spell
		in.Forks[1].Timer.BaselineNs, in.Forks[1].Timer.BaselineInvocationsNs = clean, clean
		return in
	}
	def := spec.DiagSettings{}
	alive := withSpell(avgt(def, noisy(1, 4, 3.5*floor, 0.01), noisy(2, 4, 3.5*floor, 0.01)))

	// The old estimator, each fork's median baseline, calls it dead.
	var old []float64
	for i := range alive.Forks {
		for _, c := range callTimes(alive, i) {
			old = append(old, c/stats.Median(alive.Forks[i].Timer.BaselineNs))
		}
	}
	if r := stats.Median(old); !(r < 3) {
		t.Fatalf("against the median baseline the ratio is %v; the case needs it under 3", r)
	}
	for _, d := range Check(alive) {
		if d.Code == DeadCode {
			t.Errorf("real work at 3.5× the loop, one fork's baseline in a spell: %s", d)
		}
	}

	// A dead body in the same forks is still dead, at its ratio to the floor.
	dead := withSpell(avgt(def, noisy(3, 4, 1.1*floor, 0.01), noisy(4, 4, 1.1*floor, 0.01)))
	ds := Check(dead)
	if len(ds) == 0 || ds[0].Code != DeadCode {
		t.Fatalf("dead body: %v, want DEAD_CODE", codes(ds))
	}
	if r := ds[0].Evidence["ratio"]; math.Abs(r-1.1) > 0.05 {
		t.Errorf("ratio = %v, want about 1.1 (to the fastest baseline iteration)", r)
	}
	if b := ds[0].Evidence["baseline_ns"]; math.Abs(b-floor) > 1e-9 {
		t.Errorf("baseline_ns = %v, want the floor %v", b, floor)
	}
	for _, k := range []string{"baseline_loop_ns", "baseline_invocations_ns"} {
		if b := ds[0].Evidence[k]; math.Abs(b-floor) > 1e-9 {
			t.Errorf("%s = %v, want %v", k, b, floor)
		}
	}
}

// The fork measures its empty loop in both forms before the body shows
// which it uses; the cheaper form is the floor. Where `for b.Loop()`
// costs twice `for range b.Invocations()`, a body written with
// Invocations that does real work is not called dead against Loop's
// cost, and a dead body written with Loop is still dead.
func TestDeadCodeAgainstTheCheaperLoopForm(t *testing.T) {
	const inv, loop = 0.29, 0.58
	withForms := func(in *Input) *Input {
		for i := range in.Forks {
			in.Forks[i].Timer.BaselineNs = []float64{loop, loop * 1.01, loop, loop * 1.02, loop}
			in.Forks[i].Timer.BaselineInvocationsNs = []float64{inv, inv * 1.01, inv, inv * 1.02, inv}
		}
		return in
	}
	def := spec.DiagSettings{}
	work := withForms(avgt(def, noisy(1, 5, 4*inv, 0.01), noisy(2, 5, 4*inv, 0.01), noisy(3, 5, 4*inv, 0.01)))
	if r := stats.Median(callTimes(work, 0)) / loop; !(r < 3) {
		t.Fatalf("against Loop's baseline the ratio is %v; the case needs it under 3", r)
	}
	for _, d := range Check(work) {
		if d.Code == DeadCode {
			t.Errorf("real work at 4× the Invocations loop: %s", d)
		}
	}
	dead := withForms(avgt(def, noisy(4, 5, loop, 0.01), noisy(5, 5, loop, 0.01), noisy(6, 5, loop, 0.01)))
	ds := Check(dead)
	if len(ds) == 0 || ds[0].Code != DeadCode {
		t.Fatalf("a dead body at Loop's cost, 2× the Invocations loop: %v, want DEAD_CODE", codes(ds))
	}
	if l, i := ds[0].Evidence["baseline_loop_ns"], ds[0].Evidence["baseline_invocations_ns"]; l != loop || i != inv {
		t.Errorf("baseline_loop_ns %v, baseline_invocations_ns %v, want %v and %v", l, i, loop, inv)
	}
	for _, want := range []string{"for b.Loop() 0.58", "for range b.Invocations() 0.29"} {
		if !strings.Contains(ds[0].Message, want) {
			t.Errorf("message lacks %q: %s", want, ds[0].Message)
		}
	}
}
