// Package compare compares two benchspec reports run by run and says
// which runs got significantly better or worse (docs/statistics.md).
//
//   - Runs pair by key; runs on one side only are listed, never dropped.
//   - Forks are the samples: Welch's t-test on the fork means gives the
//     change's interval in the score's terms, which the threshold needs;
//     the Mann–Whitney U test on the same means (Pair.PRank) confirms a
//     verdict where it can reach the family's level, since bimodal fork
//     means fool Welch; where it cannot (3 forks a side), Welch decides
//     alone and a note says so.
//   - The runs of one comparison are one family: Holm's correction keeps
//     the chance of any false verdict among them at Alpha.
//   - Beyond the threshold and significant: a regression or an
//     improvement; within it: unchanged; across it: inconclusive, with the
//     forks a side that would decide it. A wide interval never reads as
//     unchanged.
//   - Two builds run in one batch (benchspec ab) are judged from pairs of
//     adjacent forks instead (ComparePaired: log ratios, signed-rank with
//     a Hodges–Lehmann interval, or a paired t-test for few pairs).
//   - No verdict from a batch that started on a busy machine (ENV_LOAD) or
//     a run flagged DEAD_CODE; a side whose forks ran back to back gets a
//     note (Result.Notes), as its interval is too narrow.
package compare

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/explain"
	"github.com/benchspec/benchspec/report/stats"
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
	// Correction is the family-wise correction over the pairs of one
	// comparison: Holm (the default, "") or NoCorrection.
	Correction string
}

func (o Options) withDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Correction == "" {
		o.Correction = Holm
	}
	return o
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
	// same fork means (exact for small samples; 1 when all are equal);
	// of a paired comparison, the Wilcoxon signed-rank test's on the
	// pairs' log ratios.
	PRank report.Float `json:"p_rank"`
	// PVerdict is the p-value of "the change lies beyond ±Threshold":
	// the parametric test's (below Alpha exactly when its interval lies
	// wholly beyond a bound), or the rank test's when that is larger and
	// the rank test takes part (RankTakesPart). PAdjusted is PVerdict
	// after the family's correction (Result.Correction); a regression or
	// an improvement needs it below Alpha. Both are null for a pair that
	// was not tested, which is no member of the family.
	PVerdict  report.Float `json:"p_verdict"`
	PAdjusted report.Float `json:"p_adjusted"`
	// RankTakesPart says whether the rank test could confirm or veto
	// the verdict: whether its smallest possible p-value with these
	// samples is below the strictest level of the family (Alpha / the
	// family's size under Holm). A test that cannot reach the level
	// would veto every verdict whatever the data; then the parametric
	// test decides alone and Note says so.
	RankTakesPart bool    `json:"rank_takes_part"`
	Verdict       Verdict `json:"verdict"`
	Reason        string  `json:"reason,omitempty"` // why inconclusive or failed
	// Note is what the reader should know of a verdict that stands: it
	// was decided by the parametric test alone.
	Note string `json:"note,omitempty"`
	// ForksNeeded is, for an inconclusive pair, the forks a side that
	// would decide it if the change and the spread of the fork means
	// stayed as measured; omitted when unknown or beyond
	// stats.MaxForks.
	ForksNeeded int `json:"forks_needed,omitempty"`
	// Stop is why a sequential comparison (benchspec ab) stopped adding
	// pairs to the run: StopDecided, StopBudget or StopBound; "" for a
	// comparison of two reports and for a run that failed.
	Stop string `json:"stop,omitempty"`
	// Where is, asked for (--explain) and for a regression or an
	// improvement only, which functions' CPU time per op changed.
	Where *explain.Explanation `json:"where,omitempty"`
	// WhereNote says why a pair that should have a Where has none (its
	// forks left no CPU profile).
	WhereNote string `json:"where_note,omitempty"`
}

// Why ab stopped adding pairs to a run (Pair.Stop).
const (
	StopDecided = "decided" // its interval decided the verdict
	StopBudget  = "budget"  // the batch's time (--max-time) ran out
	StopBound   = "bound"   // it reached the most pairs a run may take (--max-pairs)
)

// Result is the comparison of two reports.
type Result struct {
	BaseName  string  `json:"base"` // how the reports are named in output, e.g. their paths
	NewName   string  `json:"new"`
	Threshold float64 `json:"threshold"`
	Alpha     float64 `json:"alpha"`
	Test      string  `json:"test"`
	// Correction is the family-wise correction (Holm or NoCorrection)
	// and Family the number of pairs it was taken over: those tested.
	Correction string `json:"correction"`
	Family     int    `json:"family"`
	Pairs      []Pair `json:"pairs"`     // in the base's run order
	OnlyBase   []Run  `json:"only_base"` // runs missing from the new report
	OnlyNew    []Run  `json:"only_new"`  // runs missing from the base report
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
	opts = opts.withDefaults()
	res := &Result{BaseName: "base", NewName: "new", Threshold: opts.Threshold, Alpha: opts.Alpha,
		Test: Test, Correction: opts.Correction, Pairs: []Pair{}, OnlyBase: []Run{}, OnlyNew: []Run{}, Notes: []string{}}
	if note := declaredNote(base, new); note != "" {
		res.Notes = append(res.Notes, note)
	}
	res.Notes = append(res.Notes, envNotes(base, new)...)
	res.Notes = append(res.Notes, complexityNotes(base, new)...)
	if note := driftNote(base, new); note != "" {
		res.Notes = append(res.Notes, note)
	}
	inNew := make(map[string]*report.Run, len(new.Runs))
	for i := range new.Runs {
		inNew[new.Runs[i].Key] = &new.Runs[i]
	}
	inBase := make(map[string]bool, len(base.Runs))
	var cands []candidate
	var runs [][2]*report.Run
	for i := range base.Runs {
		b := &base.Runs[i]
		inBase[b.Key] = true
		if n, ok := inNew[b.Key]; ok {
			p, c := comparePair(b, n, opts)
			if c != nil {
				c.pair = len(res.Pairs)
				cands = append(cands, *c)
			}
			res.Pairs = append(res.Pairs, p)
			runs = append(runs, [2]*report.Run{b, n})
		} else {
			res.OnlyBase = append(res.OnlyBase, runOf(b))
		}
	}
	decide(res, cands, opts)
	for i := range res.Pairs {
		p := &res.Pairs[i]
		if p.Verdict != Regression && p.Verdict != Improvement {
			continue
		}
		// A machine busy with other work moves every number by more
		// than the forks can tell from a change: a verdict would be
		// the load's.
		b, n := runs[i][0], runs[i][1]
		if why := cmp.Or(busy(base, "base"), busy(new, "new"), deadCode(b, "base"), deadCode(n, "new")); why != "" {
			p.Reason = fmt.Sprintf("would be a%s %s, but %s", map[bool]string{true: "n", false: ""}[p.Verdict == Improvement], p.Verdict, why)
			p.Verdict, p.Note = Inconclusive, ""
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
// state of the core (docs/writing.md, the loop forms): between two runs of
// one build, seeds' `empty` differed by +93 % with p = 0.02.
func deadCode(r *report.Run, name string) string {
	for _, d := range r.Diagnostics {
		if d.Code == "DEAD_CODE" && d.Severity == "warning" {
			return name + " is flagged DEAD_CODE: its score is the harness's empty loop, not the benchmark's work, and that loop's cost moves between processes; fix the benchmark (benchspec.Sink) before comparing it"
		}
	}
	return ""
}

// openPair starts the pair of a run in both reports: its unit and which
// way is better, both sides' scores, and the scale that brings new's
// values to base's unit, or why the two cannot be compared.
func openPair(base, new *report.Run) (p Pair, scale float64, why string) {
	p = newPair(runOf(base))
	p.Unit = base.Mode.Unit(base.Settings.TimeUnit)
	if base.Primary != nil {
		p.Unit = base.Primary.ScoreUnit
	}
	p.Better = Better(p.Unit)
	p.Base, p.New = sideOf(base, 1), sideOf(new, 1)
	scale, why = comparable(base, new, p.Unit)
	return p, scale, why
}

// comparePair tests one run of both reports. A pair that can be tested
// comes back with its candidate, which decide turns into a verdict once
// the family is known; one that cannot has its verdict already.
func comparePair(base, new *report.Run, opts Options) (Pair, *candidate) {
	p, scale, why := openPair(base, new)
	if why != "" {
		p.Verdict = Failed
		if !strings.HasPrefix(why, "failed in ") {
			p.Verdict = Inconclusive
		}
		p.Reason = why
		return p, nil
	}
	p.New = sideOf(new, scale)
	b, n := float64(p.Base.Score), float64(p.New.Score)
	if !p.Base.Score.Valid() || !p.New.Score.Valid() || b == 0 {
		p.Verdict, p.Reason = Inconclusive, "a score does not exist or is zero"
		return p, nil
	}
	p.Change = report.Float((n - b) / b)
	fa, fb := forkMeans(base.Primary, 1), forkMeans(new.Primary, scale)
	if len(fa) < 2 || len(fb) < 2 {
		p.Verdict, p.Reason = Inconclusive, fmt.Sprintf("%d and %d forks: a test needs at least 2 forks a side, since only forks tell how much one process differs from the next", len(fa), len(fb))
		return p, nil
	}
	w, _ := stats.WelchTest(fa, fb, opts.Alpha)
	r, _ := stats.RankTest(fa, fb)
	p.P, p.PRank = report.Float(w.P), report.Float(r.P)
	p.ChangeCI = [2]report.Float{report.Float((n - b - w.HalfWidth) / b), report.Float((n - b + w.HalfWidth) / b)}
	if !p.Change.Valid() || !p.P.Valid() || !p.ChangeCI[0].Valid() || !p.ChangeCI[1].Valid() {
		// Finite scores near the largest float64 overflow the test's
		// sums: NaN compares false with every bound, which would read
		// as "unchanged".
		p.Verdict, p.Reason = Inconclusive, "the scores are too large to test: the statistics overflow float64"
		return p, nil
	}
	th := opts.Threshold
	c := &candidate{
		lo: float64(p.ChangeCI[0]), hi: float64(p.ChangeCI[1]), change: float64(p.Change), th: th,
		pParam: w.P, pBeyond: stats.BeyondP(n-b, w.SE, w.DF, th*math.Abs(b), -th*math.Abs(b)),
		rankP: r.P, rankFloor: stats.RankMinP(len(fa), len(fb)),
		samples: fmt.Sprintf("%d and %d forks", len(fa), len(fb)), unit: "forks a side",
		param: "Welch's test on the fork means", rank: "the rank test", overlap: "fork means of the two sides overlap",
	}
	margin := math.Min(math.Abs(c.change-th), math.Abs(c.change+th)) * math.Abs(b)
	c.need = func() (int, bool) { return stats.WelchForks(fa, fb, margin, opts.Alpha) }
	c.rankNeed = func() int { return rankForksNeeded(fa, fb, r, margin, opts.Alpha) }
	return p, c
}

// newPair is a pair of run with every number missing.
func newPair(run Run) Pair {
	return Pair{Run: run, Change: report.NaN(), ChangeCI: [2]report.Float{report.NaN(), report.NaN()},
		P: report.NaN(), PRank: report.NaN(), PVerdict: report.NaN(), PAdjusted: report.NaN()}
}

// comparable says why two runs cannot be compared ("" when they can;
// "failed in base: …" or "failed in new: …" for a failure), and the
// factor that converts the new side's unit to unit.
func comparable(base, new *report.Run, unit string) (scale float64, why string) {
	switch {
	case base.NoTime() || new.NoTime():
		return 0, "no time per op: the benchmark removed it (b.ReportMetric(0, \"ns/op\"))"
	case base.Skipped() || new.Skipped():
		return 0, "skipped: " + oneLine(base.SkipReason+new.SkipReason)
	case base.Failed() || base.Primary == nil:
		return 0, "failed in base: " + oneLine(base.Error)
	case new.Failed() || new.Primary == nil:
		return 0, "failed in new: " + oneLine(new.Error)
	}
	scale, ok := Conversion(new.Primary.ScoreUnit, unit)
	if !ok {
		return 0, fmt.Sprintf("units differ: %s and %s", unit, new.Primary.ScoreUnit)
	}
	return scale, ""
}

// candidate is a tested pair before the family's correction decides its
// verdict: the parametric test's interval and p-values, the rank test's,
// and how to word and size what would decide it.
type candidate struct {
	pair                 int                // index in Result.Pairs
	lo, hi, change, th   float64            // the (1−Alpha) interval of the change, the change, the threshold
	pParam               float64            // the parametric test's two-sided p of a change
	pBeyond              float64            // its p of a change beyond ±th (stats.BeyondP)
	rankP, rankFloor     float64            // the rank test's p, and the smallest it can give with these samples
	samples              string             // "3 and 3 forks", "12 pairs"
	unit                 string             // what ForksNeeded counts: "forks a side", "pairs"
	param, rank, overlap string             // the tests' names; what a rank test that does not confirm means
	need                 func() (int, bool) // the samples that would bring the interval within the margin
	rankNeed             func() int         // the samples that would let the rank test confirm; 0 unknown
}

// decide gives every candidate of res its verdict: Holm's correction
// (or none) over the candidates' p-values of a change beyond the
// threshold, the family being every tested pair of the comparison.
//
// The rank test takes part in a pair's verdict, its p-value combined
// with the parametric test's by taking the larger (an intersection–union
// test: both must reject, and the larger p is a valid p-value of
// that), only when it can reach the family's strictest level at all:
// its smallest p-value with the pair's samples (2/C(n1+n2, n1); of
// the signed-rank test 2/2ⁿ) below Alpha/m under Holm with m pairs. A
// rank test that cannot reach it would veto every verdict whatever the
// data — with 3 forks a side its p never goes below 0.1, so compare at
// those forks could never decide — which is no caution but a broken
// instrument. Then the parametric test decides alone, and the pair's
// Note says so: its guard against fork means that are not normal (a
// bimodal benchmark's) is gone, and the forks that would restore it.
func decide(res *Result, cands []candidate, opts Options) {
	m := len(cands)
	res.Family = m
	level := opts.Alpha
	if opts.Correction == Holm && m > 0 {
		level = opts.Alpha / float64(m)
	}
	pv := make([]float64, m)
	for i := range cands {
		c := &cands[i]
		p := &res.Pairs[c.pair]
		p.RankTakesPart = c.rankFloor < level
		pv[i] = c.pBeyond
		if p.RankTakesPart {
			pv[i] = math.Max(pv[i], c.rankP)
		}
		p.PVerdict = report.Float(pv[i])
	}
	adj := pv
	if opts.Correction == Holm {
		adj = stats.Holm(pv)
	}
	for i := range cands {
		c := &cands[i]
		p := &res.Pairs[c.pair]
		p.PAdjusted = report.Float(adj[i])
		v := Improvement
		if (p.Better == "lower") == (c.change > 0) {
			v = Regression
		}
		an := map[bool]string{true: "n", false: ""}[v == Improvement]
		switch {
		case c.pBeyond < opts.Alpha && p.RankTakesPart && c.rankP >= opts.Alpha:
			// The parametric test assumes normal samples; bimodal ones
			// (a process landing in a fast or a slow state) fool it, and
			// the rank test, which assumes no shape, does not confirm.
			p.Verdict = Inconclusive
			p.ForksNeeded = c.rankNeed()
			why := fmt.Sprintf("p = %.3f with %s: %s", c.rankP, c.samples, c.overlap)
			p.Reason = fmt.Sprintf("%s would call it a%s %s (%+.1f%%, p = %s), but %s does not (%s)", c.param, an, v, 100*c.change, pText(c.pParam), c.rank, why)
			p.Reason += forksAdvice(p.ForksNeeded, p.ForksNeeded > 0, c.unit, "decide it")
		case c.pBeyond < opts.Alpha && adj[i] >= opts.Alpha:
			p.Verdict = Inconclusive
			p.Reason = fmt.Sprintf("%s would call it a%s %s (%+.1f%%, p = %s), but not once the family of %d tested runs is accounted for (Holm: adjusted p = %.3g, not below %g): among that many runs one crosses ±%s by chance more often than alpha",
				c.param, an, v, 100*c.change, pText(pv[i]), m, adj[i], opts.Alpha, percent(c.th, false))
		case c.pBeyond < opts.Alpha:
			p.Verdict = v
			if !p.RankTakesPart {
				p.Note = fmt.Sprintf("decided by %s alone: %s cannot go below p = %.2g with %s, above the level %.2g it would need (alpha %g%s), so it could only veto; fork means that are not normal (a benchmark whose processes land in a fast or a slow state) can fool the parametric test, and more %s let the rank test check it",
					c.param, c.rank, c.rankFloor, c.samples, level, opts.Alpha, familyText(opts.Correction, m), c.unit)
			}
		case c.th > 0 && c.lo > -c.th && c.hi < c.th:
			p.Verdict = Unchanged
		default:
			// The interval crosses ±th (with th 0: it holds 0, as no
			// interval lies within ±0): it must shrink to the distance
			// from the change to the nearer boundary.
			p.Verdict = Inconclusive
			p.Reason = inconclusiveReason(c.pParam < opts.Alpha, c.lo, c.hi, c.th, opts.Alpha)
			goal := "decide it"
			if c.th == 0 {
				goal = "show a change of this size"
			}
			k, ok := c.need()
			if ok {
				p.ForksNeeded = k
			}
			p.Reason += forksAdvice(k, ok, c.unit, goal)
		}
	}
}

// familyText is how the level a rank test would need came about.
func familyText(correction string, m int) string {
	if correction == Holm && m > 1 {
		return fmt.Sprintf(" over %d tested runs, Holm", m)
	}
	return ""
}

// rankForksNeeded returns the forks a side that would decide a pair
// that Welch's test decides and the rank test does not: the most of
// what Welch's interval needs (stats.WelchForks), the fewest with which
// the rank test can be significant at all (stats.RankMinForks) and what
// it would need if the fork means kept the order measured
// (stats.RankForks); more than the forks it had, as those did not
// decide it. 0 when more than stats.MaxForks would be needed.
func rankForksNeeded(fa, fb []float64, r stats.Rank, margin, alpha float64) int {
	k := stats.RankMinForks(alpha)
	rk, ok := stats.RankForks(r.U, len(fa), len(fb), alpha)
	if !ok {
		return 0
	}
	k = max(k, rk)
	if wk, ok := stats.WelchForks(fa, fb, margin, alpha); ok {
		k = max(k, wk)
	}
	k = max(k, min(len(fa), len(fb))+1)
	if k > stats.MaxForks {
		return 0
	}
	return k
}

// adviceForks is the most forks a side a reason suggests: beyond, the
// difference is too small for the noise measured to be worth deciding
// by adding forks (the pair's ForksNeeded still has the estimate).
const adviceForks = 1000

// forksAdvice ends a reason with the forks a side that would reach goal
// ("decide it") in unit ("forks a side", "pairs"), k when ok, or says it would take more than adviceForks.
func forksAdvice(k int, ok bool, unit, goal string) string {
	if !ok || k > adviceForks {
		return fmt.Sprintf(": more than %d %s would be needed to %s; the difference is too small to decide at this noise", adviceForks, unit, goal)
	}
	return fmt.Sprintf(": about %d %s would %s", k, unit, goal)
}

// pText writes a p-value with two significant digits.
// percent writes a threshold in a reason: 0.05 as "5%" (the tables'
// numbers are report/format's).
func percent(f float64, sign bool) string {
	if sign {
		return fmt.Sprintf("%+.1f%%", 100*f)
	}
	return strconv.FormatFloat(100*f, 'g', 4, 64) + "%" // as format.Percent: 99.67%, not 99.66666666666667%
}

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
	ci := fmt.Sprintf("the %s interval [%+.1f%%, %+.1f%%] of the change", percent(1-alpha, false), 100*lo, 100*hi)
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
