// Package compare compares two benchspec reports, a base and a new one,
// run by run, and says which runs got significantly better or worse.
//
// The package is opinionated:
//
//   - Runs are paired by their key (benchmark, params and mode). Runs
//     present on one side only are listed, never dropped.
//   - Only the primary metric is compared. Its unit says which way is
//     better: ops per time, higher; time per op, lower. The new score is
//     converted to the base's time unit when the spec changed it.
//   - Change is (new − base) / base of the scores. Whether it is real is
//     Welch's t-test on the measurement iteration scores of all measured
//     forks (the raw data), two-sided, at level Alpha; its confidence
//     interval is the difference of the means' (1−Alpha) interval, with
//     Welch–Satterthwaite degrees of freedom, relative to the base score.
//   - A change is a regression or an improvement only when it is
//     significant (p < Alpha) and its whole confidence interval lies
//     beyond the threshold: the change is at least Threshold with
//     confidence, not merely on average. A change of +7 % with interval
//     [+3 %, +11 %] is "unchanged" at a 5 % threshold; the table still
//     shows it. With Threshold 0 this is plain significance. A pair with
//     fewer than two iterations on a side cannot be tested: inconclusive.
//
// Welch's test compares means, the quantity JMH's score is, without
// assuming equal variances, and it gives a confidence interval of the
// change in the score's terms. Like the score's error, it treats the
// iterations of all forks as independent samples; when forks disagree
// more than iterations within a fork do, it is overconfident, which is
// why a threshold guards the verdict.
package compare

import (
	"fmt"
	"strings"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// DefaultAlpha is the significance level when Options.Alpha is 0.
const DefaultAlpha = 0.05

// Options configure a comparison.
type Options struct {
	// Threshold is the smallest relative change that counts as a
	// regression or an improvement, 0.05 for 5 %: the change's confidence
	// interval must lie beyond it.
	Threshold float64
	// Alpha is the significance level of the test; 0 means DefaultAlpha.
	Alpha float64
}

// Verdict is what a pair's comparison concluded.
type Verdict string

// Verdicts.
const (
	Unchanged    Verdict = "unchanged"    // not shown to have changed by the threshold or more
	Improvement  Verdict = "improvement"  // better, the whole confidence interval beyond the threshold
	Regression   Verdict = "regression"   // worse, the whole confidence interval beyond the threshold
	Inconclusive Verdict = "inconclusive" // no test possible: see Pair.Reason
	Failed       Verdict = "failed"       // the run failed on a side: see Pair.Reason
)

// Run identifies a run of one report.
type Run struct {
	Key       string            `json:"key"`
	Benchmark string            `json:"benchmark"`
	Params    map[string]string `json:"params"`
	Mode      spec.Mode         `json:"mode"`
}

// Side is one side's score of a pair, in the pair's unit.
type Side struct {
	Status string       `json:"status"`
	Score  report.Float `json:"score"`
	Error  report.Float `json:"score_error"` // 99.9 % half-width, as in the report
	Count  int          `json:"count"`
}

// Pair is the comparison of one run present in both reports.
type Pair struct {
	Run
	Unit   string `json:"unit"`   // the base's unit; the new side is converted to it
	Better string `json:"better"` // "higher" or "lower"
	Base   Side   `json:"base"`
	New    Side   `json:"new"`
	// Change is (new − base) / base: 0.3 is 30 % more.
	Change report.Float `json:"change"`
	// ChangeCI is the (1−Alpha) confidence interval of Change.
	ChangeCI [2]report.Float `json:"change_ci"`
	// P is the two-sided p-value of Welch's t-test on the raw data.
	P       report.Float `json:"p"`
	Verdict Verdict      `json:"verdict"`
	Reason  string       `json:"reason,omitempty"` // why inconclusive or failed
}

// Result is the comparison of two reports.
type Result struct {
	BaseName  string  `json:"base"` // how the reports are named in output, e.g. their paths
	NewName   string  `json:"new"`
	Threshold float64 `json:"threshold"`
	Alpha     float64 `json:"alpha"`
	Test      string  `json:"test"`
	Pairs     []Pair  `json:"pairs"`     // in the base's run order
	OnlyBase  []Run   `json:"only_base"` // runs missing from the new report
	OnlyNew   []Run   `json:"only_new"`  // runs missing from the base report
}

// Count returns the number of pairs with verdict v.
func (r *Result) Count(v Verdict) int {
	n := 0
	for _, p := range r.Pairs {
		if p.Verdict == v {
			n++
		}
	}
	return n
}

// Worse reports whether the new report is worse than the base: a pair
// regressed, or a run that the new report holds failed there.
func (r *Result) Worse() bool {
	for _, p := range r.Pairs {
		if p.Verdict == Regression || p.Verdict == Failed && p.New.Status != report.StatusOK {
			return true
		}
	}
	return false
}

// Compare compares the runs of base and new.
func Compare(base, new *report.Report, opts Options) *Result {
	if opts.Alpha <= 0 {
		opts.Alpha = DefaultAlpha
	}
	res := &Result{BaseName: "base", NewName: "new", Threshold: opts.Threshold, Alpha: opts.Alpha,
		Test: "welch", Pairs: []Pair{}, OnlyBase: []Run{}, OnlyNew: []Run{}}
	inNew := make(map[string]*report.Run, len(new.Runs))
	for i := range new.Runs {
		inNew[new.Runs[i].Key] = &new.Runs[i]
	}
	inBase := make(map[string]bool, len(base.Runs))
	for i := range base.Runs {
		b := &base.Runs[i]
		inBase[b.Key] = true
		if n, ok := inNew[b.Key]; ok {
			res.Pairs = append(res.Pairs, comparePair(b, n, opts))
		} else {
			res.OnlyBase = append(res.OnlyBase, runOf(b))
		}
	}
	for i := range new.Runs {
		if !inBase[new.Runs[i].Key] {
			res.OnlyNew = append(res.OnlyNew, runOf(&new.Runs[i]))
		}
	}
	return res
}

func runOf(r *report.Run) Run {
	return Run{Key: r.Key, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode}
}

func comparePair(base, new *report.Run, opts Options) Pair {
	p := Pair{Run: runOf(base), Unit: base.Mode.Unit(base.Settings.TimeUnit),
		Change: report.NaN(), ChangeCI: [2]report.Float{report.NaN(), report.NaN()}, P: report.NaN()}
	if base.Primary != nil {
		p.Unit = base.Primary.ScoreUnit
	}
	p.Better = Better(p.Unit)
	p.Base, p.New = sideOf(base, 1), sideOf(new, 1)
	switch {
	case base.NoTime() || new.NoTime():
		p.Verdict, p.Reason = Inconclusive, "no time per op: the benchmark removed it (b.ReportMetric(0, \"ns/op\"))"
		return p
	case base.Skipped() || new.Skipped():
		p.Verdict, p.Reason = Inconclusive, "skipped: "+oneLine(base.SkipReason+new.SkipReason)
		return p
	case base.Failed() || base.Primary == nil:
		p.Verdict, p.Reason = Failed, "failed in base: "+oneLine(base.Error)
		return p
	case new.Failed() || new.Primary == nil:
		p.Verdict, p.Reason = Failed, "failed in new: "+oneLine(new.Error)
		return p
	}
	scale, ok := Conversion(new.Primary.ScoreUnit, p.Unit)
	if !ok {
		p.Verdict, p.Reason = Inconclusive, fmt.Sprintf("units differ: %s and %s", p.Unit, new.Primary.ScoreUnit)
		return p
	}
	p.New = sideOf(new, scale)
	b, n := float64(p.Base.Score), float64(p.New.Score)
	if !p.Base.Score.Valid() || !p.New.Score.Valid() || b == 0 {
		p.Verdict, p.Reason = Inconclusive, "a score does not exist or is zero"
		return p
	}
	p.Change = report.Float((n - b) / b)
	w, ok := welch(raw(base.Primary, 1), raw(new.Primary, scale), opts.Alpha)
	if !ok {
		p.Verdict, p.Reason = Inconclusive, "fewer than 2 iterations on a side: no test"
		return p
	}
	p.P = report.Float(w.p)
	p.ChangeCI = [2]report.Float{report.Float((n - b - w.halfWidth) / b), report.Float((n - b + w.halfWidth) / b)}
	if !p.Change.Valid() || !p.P.Valid() || !p.ChangeCI[0].Valid() || !p.ChangeCI[1].Valid() {
		// Finite scores near the largest float64 overflow the test's
		// sums: NaN compares false with every bound, which would read
		// as "unchanged".
		p.Verdict, p.Reason = Inconclusive, "the scores are too large to test: the statistics overflow float64"
		return p
	}
	p.Verdict = Unchanged
	lo, hi := float64(p.ChangeCI[0]), float64(p.ChangeCI[1])
	if w.p < opts.Alpha && (lo >= opts.Threshold || hi <= -opts.Threshold) {
		p.Verdict = Improvement
		if (p.Better == "lower") == (p.Change > 0) {
			p.Verdict = Regression
		}
	}
	return p
}

func sideOf(r *report.Run, scale float64) Side {
	s := Side{Status: r.Status, Score: report.NaN(), Error: report.NaN()}
	if r.Primary != nil {
		s.Score, s.Error, s.Count = r.Primary.Score*report.Float(scale), r.Primary.ScoreError*report.Float(scale), r.Primary.Count
	}
	return s
}

// raw is the metric's raw data, all forks in one slice, scaled; values
// that do not exist are left out.
func raw(m *report.Metric, scale float64) []float64 {
	var out []float64
	for _, fork := range m.RawData {
		for _, v := range fork {
			if v.Valid() {
				out = append(out, float64(v)*scale)
			}
		}
	}
	return out
}

// Better says which way a unit improves: "higher" for ops per time,
// "lower" for everything else (time per op, and benchmark metrics, which
// are mostly costs such as allocs/op).
func Better(unit string) string {
	if strings.HasPrefix(unit, "ops/") {
		return "higher"
	}
	return "lower"
}

var nsPer = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

// Conversion returns the factor that converts a score in unit from into
// unit to: both time per op or both ops per time, in ns, us, ms or s.
func Conversion(from, to string) (float64, bool) {
	if from == to {
		return 1, true
	}
	if f, ok := nsPer[strings.TrimSuffix(from, "/op")]; ok && strings.HasSuffix(from, "/op") {
		if t, ok := nsPer[strings.TrimSuffix(to, "/op")]; ok && strings.HasSuffix(to, "/op") {
			return f / t, true
		}
	}
	if f, ok := nsPer[strings.TrimPrefix(from, "ops/")]; ok && strings.HasPrefix(from, "ops/") {
		if t, ok := nsPer[strings.TrimPrefix(to, "ops/")]; ok && strings.HasPrefix(to, "ops/") {
			return t / f, true
		}
	}
	return 0, false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
