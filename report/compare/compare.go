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
//   - Change is (new − base) / base of the scores. Forks are the
//     experimental unit (package report): a fork's iterations share its
//     process's draw of memory layout, code placement and core, so
//     whether a change is real is Welch's t-test on the fork means of the
//     two sides (the raw data averaged per fork), two-sided, at level
//     Alpha. Its confidence interval is the difference of the means'
//     (1−Alpha) interval, with Welch–Satterthwaite degrees of freedom,
//     relative to the base score.
//   - A regression or an improvement needs a second test as well: the
//     two-sided Mann–Whitney U test on the same fork means, at the same
//     Alpha (Pair.PRank). Welch's test assumes the fork means are
//     normal; they need not be. A body that carries a chain through
//     memory (seeds' counter.Inc*) puts each process in a fast or a slow
//     state, about 1.45 or 2.0 ns/op on the README's VM, so its fork
//     means are bimodal; with 3 forks a side, all of one side fast and
//     all of the other slow happens about once in 32 per benchmark, and
//     Welch then reports a tiny p with a tight interval: 3 false alarms
//     in 80 idle A/A comparisons (counter.Inc1 1.48 against 2.02 ns,
//     +36 %, p = 0.0007). No parametric test on 3 v 3 is safe from
//     that. A rank test is: its false-alarm rate is at most Alpha
//     whatever the distribution. It pays with resolution: its smallest
//     two-sided p is 2/C(n1+n2, n1), 0.1 with 3 a side (benchstat's
//     "~ (p=0.100 n=3+3)"), 0.029 with 4. So with 3 forks a side compare
//     gives no regression or improvement at Alpha 0.05: 4 a side at
//     least, 5 recommended (JMH's default). benchstat decides on the
//     U test alone; here Welch keeps the interval in the score's terms,
//     which the threshold needs, and the rank test guards it.
//   - The verdict reads the interval against the threshold. Wholly beyond
//     it (and significant, by both tests): a regression or an
//     improvement, the change is at least Threshold with confidence, not
//     merely on average. When Welch's test would call it but the rank
//     test is not significant, the pair is inconclusive, and Pair.Reason
//     says so, with the rank test's p, its floor with these forks when
//     that is above Alpha, and the forks a side that would decide it
//     (Pair.ForksNeeded: the most of what Welch's interval needs, the
//     fewest with which the rank test can reach Alpha at all, and what
//     it needs if the fork means kept the order measured). Wholly
//     within ±Threshold: unchanged, the change is shown to be smaller
//     than Threshold. Across a boundary: inconclusive, the data cannot
//     decide; Pair.ForksNeeded estimates how many forks a side would
//     decide it if the change and the spread of fork means stayed as
//     measured, and Pair.Reason says "no change shown" when the change is
//     not significant (a wide interval shows nothing, so it never reads
//     as unchanged). With Threshold 0 this is plain significance, and
//     since no interval lies within ±0, nothing is unchanged: a change
//     that is not significant is inconclusive, "no change shown", with
//     the forks a side that would show a change of the measured size.
//     A side with fewer than 2 forks cannot be
//     tested (nothing says how much one process differs from the next):
//     inconclusive.
//   - A report whose batch started on a busy machine (its environment
//     check warned ENV_LOAD: load at least the CPUs available) gives no
//     regression or improvement: load that differs between two batches
//     moves every number, and fork means cannot tell that from a change.
//     Such a pair is inconclusive, and its reason says what the verdict
//     would have been and what load was measured.
//   - Nor does a run flagged DEAD_CODE on either side: its score is the
//     harness's empty loop, whose cost changes from process to process
//     with the core's state, not the benchmark's work. Inconclusive,
//     naming the side and the verdict it would have been.
//   - A side whose forks ran in declared order (each run's forks back to
//     back) gets a note in Result.Notes when interleaving would have
//     changed something (two runs or more, one with two forks or more):
//     forks that run within seconds of each other share the machine's
//     state of those seconds, so on a machine whose speed drifts they
//     vary less than two batches do, and the interval, which counts
//     them as independent, is too narrow. On the 2-core VM of the README
//     the share of the fork means' variance that a batch carried was
//     0.2–0.7 for most seeds benchmarks; --order interleaved spreads each
//     run's forks over the batch. The note does not change a verdict.
//
// Welch's test compares means, the quantity JMH's score is, without
// assuming equal variances, and gives a confidence interval of the
// change in the score's terms. On fork means it has few degrees of
// freedom (about 4 with 3 forks a side), which is the honest price of
// three processes: the same test on iterations turns process-to-process
// variation into p = 0.000 and reports regressions between two runs of
// one build.
package compare

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/benchspec/benchspec/internal/forkstat"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// DefaultAlpha is the significance level when Options.Alpha is 0.
const DefaultAlpha = 0.05

// Test names the tests in Result.Test: Welch's t-test and the
// Mann–Whitney U test, both on fork means.
const Test = "welch+mann-whitney-fork-means"

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
	Unchanged    Verdict = "unchanged"    // shown to have changed by less than the threshold: the interval lies within it
	Improvement  Verdict = "improvement"  // better, the whole confidence interval beyond the threshold
	Regression   Verdict = "regression"   // worse, the whole confidence interval beyond the threshold
	Inconclusive Verdict = "inconclusive" // the data cannot decide: see Pair.Reason and Pair.ForksNeeded
	Failed       Verdict = "failed"       // the run failed on a side: see Pair.Reason
)

// Run identifies a run of one report.
type Run struct {
	Key       string            `json:"key"`
	Benchmark string            `json:"benchmark"`
	Params    map[string]string `json:"params"`
	Mode      spec.Mode         `json:"mode"`
	Threads   int               `json:"threads,omitempty"` // goroutines running the body, as in the report
}

// Name is the run's name as the report's tables give it (DisplayName):
// its benchmark, with "/threads=N" when more than one goroutine ran it
// and " #N" for a repeated selection.
func (r Run) Name() string {
	return (&report.Run{Key: r.Key, Benchmark: r.Benchmark, Threads: r.Threads}).DisplayName()
}

// Side is one side's score of a pair, in the pair's unit.
type Side struct {
	Status string       `json:"status"`
	Score  report.Float `json:"score"`
	Error  report.Float `json:"score_error"` // 99.9 % half-width, as in the report
	Count  int          `json:"count"`
	Forks  int          `json:"forks"` // measured forks with values: the test's samples
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
	// P is the two-sided p-value of Welch's t-test on the fork means.
	P report.Float `json:"p"`
	// PRank is the two-sided p-value of the Mann–Whitney U test on the
	// same fork means (exact for small samples; 1 when all are equal).
	PRank   report.Float `json:"p_rank"`
	Verdict Verdict      `json:"verdict"`
	Reason  string       `json:"reason,omitempty"` // why inconclusive or failed
	// ForksNeeded is, for an inconclusive pair, the forks a side that
	// would decide it if the change and the spread of the fork means
	// stayed as measured; omitted when unknown or beyond
	// forkstat.MaxForks.
	ForksNeeded int `json:"forks_needed,omitempty"`
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
	// Notes say what the reader should know about the comparison as a
	// whole: a side whose forks ran in declared order.
	Notes []string `json:"notes"`
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
		Test: Test, Pairs: []Pair{}, OnlyBase: []Run{}, OnlyNew: []Run{}, Notes: []string{}}
	if note := declaredNote(base, new); note != "" {
		res.Notes = append(res.Notes, note)
	}
	inNew := make(map[string]*report.Run, len(new.Runs))
	for i := range new.Runs {
		inNew[new.Runs[i].Key] = &new.Runs[i]
	}
	inBase := make(map[string]bool, len(base.Runs))
	for i := range base.Runs {
		b := &base.Runs[i]
		inBase[b.Key] = true
		if n, ok := inNew[b.Key]; ok {
			p := comparePair(b, n, opts)
			if p.Verdict == Regression || p.Verdict == Improvement {
				// A machine busy with other work moves every number by
				// more than the forks can tell from a change: a verdict
				// would be the load's.
				if why := cmp.Or(busy(base, "base"), busy(new, "new"), deadCode(b, "base"), deadCode(n, "new")); why != "" {
					p.Reason = fmt.Sprintf("would be a%s %s, but %s", map[bool]string{true: "n", false: ""}[p.Verdict == Improvement], p.Verdict, why)
					p.Verdict = Inconclusive
				}
			}
			res.Pairs = append(res.Pairs, p)
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
	return Run{Key: r.Key, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode, Threads: r.Threads}
}

// busy returns, for a report whose batch started on a machine that
// was already busy (an ENV_LOAD warning: load at least the CPUs
// available), what its environment check measured; "" otherwise.
func busy(r *report.Report, name string) string {
	if r.Env.Check == nil {
		return ""
	}
	for _, d := range r.Env.Check.Diagnostics {
		if d.Code == "ENV_LOAD" && d.Severity == "warning" {
			return fmt.Sprintf("%s started at load %.1f with %.0f CPUs available: run both on a quiet machine", name, float64(d.Evidence["load1"]), float64(d.Evidence["available_cpus"]))
		}
	}
	return ""
}

// declaredText is the note of a comparison whose sides (named at %s)
// ran their forks in declared order.
const declaredText = "%s ran in declared order: each run's forks ran back to back and shared the machine's state of those seconds, so they can vary less than two batches do and an interval that counts them as independent is too narrow; run batches meant for compare with --order interleaved, which spreads each run's forks over the batch"

// declaredNote returns declaredText for the sides whose forks ran in
// declared order where another order would have spread them: at least
// two runs, one with at least two measured forks. A report that does
// not record its order (a merge of reports in different orders) gets
// none.
func declaredNote(base, new *report.Report) string {
	var sides []string
	for _, s := range []struct {
		name string
		r    *report.Report
	}{{"base", base}, {"new", new}} {
		if s.r.Order == nil || s.r.Order.Kind != "declared" || len(s.r.Runs) < 2 {
			continue
		}
		for i := range s.r.Runs {
			if m := s.r.Runs[i].Primary; m != nil && len(forkMeans(m, 1)) >= 2 {
				sides = append(sides, s.name)
				break
			}
		}
	}
	if len(sides) == 0 {
		return ""
	}
	return fmt.Sprintf(declaredText, strings.Join(sides, " and "))
}

// deadCode returns, for a run flagged DEAD_CODE (its score is within
// reach of the harness's empty loop: the body was optimised away), why
// its score cannot carry a verdict; "" otherwise. Such a score measures
// the loop, whose cost moves from one process to the next with the
// state of the core (the README's loop section): between two runs of
// one build, seeds' `empty` differed by +93 % with p = 0.02.
func deadCode(r *report.Run, name string) string {
	for _, d := range r.Diagnostics {
		if d.Code == "DEAD_CODE" && d.Severity == "warning" {
			return name + " is flagged DEAD_CODE: its score is the harness's empty loop, not the benchmark's work, and that loop's cost moves between processes; fix the benchmark (benchspec.Sink) before comparing it"
		}
	}
	return ""
}

func comparePair(base, new *report.Run, opts Options) Pair {
	p := Pair{Run: runOf(base), Unit: base.Mode.Unit(base.Settings.TimeUnit),
		Change: report.NaN(), ChangeCI: [2]report.Float{report.NaN(), report.NaN()}, P: report.NaN(), PRank: report.NaN()}
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
	fa, fb := forkMeans(base.Primary, 1), forkMeans(new.Primary, scale)
	if len(fa) < 2 || len(fb) < 2 {
		p.Verdict, p.Reason = Inconclusive, fmt.Sprintf("%d and %d forks: a test needs at least 2 forks a side, since only forks tell how much one process differs from the next", len(fa), len(fb))
		return p
	}
	w, _ := welch(fa, fb, opts.Alpha)
	r, _ := rankTest(fa, fb)
	p.P, p.PRank = report.Float(w.p), report.Float(r.p)
	p.ChangeCI = [2]report.Float{report.Float((n - b - w.halfWidth) / b), report.Float((n - b + w.halfWidth) / b)}
	if !p.Change.Valid() || !p.P.Valid() || !p.ChangeCI[0].Valid() || !p.ChangeCI[1].Valid() {
		// Finite scores near the largest float64 overflow the test's
		// sums: NaN compares false with every bound, which would read
		// as "unchanged".
		p.Verdict, p.Reason = Inconclusive, "the scores are too large to test: the statistics overflow float64"
		return p
	}
	lo, hi, c, th := float64(p.ChangeCI[0]), float64(p.ChangeCI[1]), float64(p.Change), opts.Threshold
	margin := math.Min(math.Abs(c-th), math.Abs(c+th)) * math.Abs(b)
	switch {
	case w.p < opts.Alpha && (lo >= th || hi <= -th):
		v := Improvement
		if (p.Better == "lower") == (p.Change > 0) {
			v = Regression
		}
		if r.p < opts.Alpha {
			p.Verdict = v
			break
		}
		// Welch's test assumes normal fork means; bimodal ones (a
		// process landing in a fast or a slow state) fool it, and the
		// rank test, which assumes no shape, does not confirm.
		p.Verdict = Inconclusive
		p.ForksNeeded = rankForksNeeded(fa, fb, r, margin, opts.Alpha)
		p.Reason = rankReason(v, c, w.p, r.p, len(fa), len(fb), opts.Alpha, p.ForksNeeded)
	case th > 0 && lo > -th && hi < th:
		p.Verdict = Unchanged
	default:
		// The interval crosses ±th (with th 0: it holds 0, as no interval
		// lies within ±0): it must shrink to the distance from the change
		// to the nearer boundary.
		p.Verdict = Inconclusive
		p.Reason = inconclusiveReason(w.p < opts.Alpha, lo, hi, th, opts.Alpha)
		goal := "decide it"
		if th == 0 {
			goal = "show a change of this size"
		}
		k, ok := forksToDecide(fa, fb, margin, opts.Alpha)
		if ok {
			p.ForksNeeded = k
		}
		p.Reason += forksAdvice(k, ok, goal)
	}
	return p
}

// rankForksNeeded returns the forks a side that would decide a pair
// that Welch's test decides and the rank test does not: the most of
// what Welch's interval needs (forksToDecide), the fewest with which
// the rank test can be significant at all (rankMinForks) and what it
// would need if the fork means kept the order measured
// (rankForksToDecide); more than the forks it had, as those did not
// decide it. 0 when more than forkstat.MaxForks would be needed.
func rankForksNeeded(fa, fb []float64, r rankResult, margin, alpha float64) int {
	k := rankMinForks(alpha)
	rk, ok := rankForksToDecide(r.u, len(fa), len(fb), alpha)
	if !ok {
		return 0
	}
	k = max(k, rk)
	if wk, ok := forksToDecide(fa, fb, margin, alpha); ok {
		k = max(k, wk)
	}
	k = max(k, min(len(fa), len(fb))+1)
	if k > forkstat.MaxForks {
		return 0
	}
	return k
}

// rankReason says why a pair that Welch's test calls v (change c,
// p-value pw) is inconclusive: the rank test's p-value pr is not below
// alpha, with n1 and n2 forks, and what would decide it.
func rankReason(v Verdict, c, pw, pr float64, n1, n2 int, alpha float64, forks int) string {
	why := fmt.Sprintf("p = %.3f with %d and %d forks", pr, n1, n2)
	if m := rankMinP(n1, n2); m >= alpha {
		why += fmt.Sprintf("; it cannot go below %.2g with %d and %d", m, n1, n2)
	} else {
		why += ": fork means of the two sides overlap"
	}
	s := fmt.Sprintf("Welch's test on the fork means would call it a%s %s (%+.1f%%, p = %s), but the rank test does not (%s)",
		map[bool]string{true: "n", false: ""}[v == Improvement], v, 100*c, pText(pw), why)
	return s + forksAdvice(forks, forks > 0, "decide it")
}

// adviceForks is the most forks a side a reason suggests: beyond, the
// difference is too small for the noise measured to be worth deciding
// by adding forks (the pair's ForksNeeded still has the estimate).
const adviceForks = 1000

// forksAdvice ends a reason with the forks a side that would reach goal
// ("decide it"), k when ok, or says it would take more than adviceForks.
func forksAdvice(k int, ok bool, goal string) string {
	if !ok || k > adviceForks {
		return fmt.Sprintf(": more than %d forks a side would be needed to %s; the difference is too small to decide at this noise", adviceForks, goal)
	}
	return fmt.Sprintf(": about %d forks a side would %s", k, goal)
}

// pText writes a p-value with two significant digits.
func pText(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}

// inconclusiveReason says what an interval [lo, hi] that crosses ±th
// shows: no change (not significant), or a change not shown to reach
// th (significant). It never reads as "unchanged": a wide interval
// shows nothing either way.
func inconclusiveReason(significant bool, lo, hi, th, alpha float64) string {
	ci := fmt.Sprintf("the %g%% interval [%+.1f%%, %+.1f%%] of the change", 100*(1-alpha), 100*lo, 100*hi)
	switch {
	case th == 0:
		return "no change shown: " + ci + " holds 0"
	case significant:
		return fmt.Sprintf("a change is shown, but not whether it reaches ±%g%%: %s crosses ±%g%%", 100*th, ci, 100*th)
	}
	return fmt.Sprintf("no change shown: %s crosses ±%g%%", ci, 100*th)
}

// forkMeans is the mean of each measured fork's valid raw values, scaled;
// forks without any are left out.
func forkMeans(m *report.Metric, scale float64) []float64 {
	var out []float64
	for _, fork := range m.RawData {
		sum, n := 0.0, 0
		for _, v := range fork {
			if v.Valid() {
				sum += float64(v) * scale
				n++
			}
		}
		if n > 0 {
			out = append(out, sum/float64(n))
		}
	}
	return out
}

func sideOf(r *report.Run, scale float64) Side {
	s := Side{Status: r.Status, Score: report.NaN(), Error: report.NaN()}
	if r.Primary != nil {
		s.Score, s.Error, s.Count = r.Primary.Score*report.Float(scale), r.Primary.ScoreError*report.Float(scale), r.Primary.Count
		s.Forks = len(forkMeans(r.Primary, 1))
	}
	return s
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
