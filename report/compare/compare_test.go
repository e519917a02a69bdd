package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

func verdicts(res *Result) map[string]Verdict {
	out := map[string]Verdict{}
	for _, p := range res.Pairs {
		out[p.Key] = p.Verdict
	}
	return out
}

func TestCompareSameBuildHasNoRegression(t *testing.T) {
	// Two runs of one build, 3 forks a side: every pair is unchanged, or,
	// where 3 forks cannot tell a change under 5 % from none, inconclusive
	// with more forks to take; never a regression or an improvement.
	res := Compare(load(t, baseFile), load(t, rerunFile), Options{Threshold: 0.05})
	want := map[string]Verdict{
		"counter.Inc1#avgt": Unchanged, "sqrt.Sunk#avgt": Unchanged, "list.Insert?size=1000#avgt": Unchanged,
		"counter.Inc1#thrpt": Inconclusive, "log.Classic#sample": Inconclusive,
	}
	if diff := cmp.Diff(want, verdicts(res)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	for _, p := range res.Pairs {
		if p.Verdict == Inconclusive && (p.ForksNeeded <= 3 || !strings.Contains(p.Reason, "forks a side would decide")) {
			t.Errorf("%s: inconclusive with %d forks needed (%s), want more than the 3 it had", p.Key, p.ForksNeeded, p.Reason)
		}
	}
	if len(res.Pairs) != len(fixtureRuns) || res.Worse() {
		t.Errorf("%d pairs, worse %v; want %d, false", len(res.Pairs), res.Worse(), len(fixtureRuns))
	}
}

func TestCompareFindsTheSlowerBenchmark(t *testing.T) {
	res := Compare(load(t, base5File), load(t, slow5File), Options{Threshold: 0.05})
	want := map[string]Verdict{
		"counter.Inc1#avgt": Unchanged, "sqrt.Sunk#avgt": Regression, "list.Insert?size=1000#avgt": Unchanged,
		"counter.Inc1#thrpt": Unchanged, "log.Classic#sample": Unchanged,
	}
	if diff := cmp.Diff(want, verdicts(res)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	p := res.Pairs[1]
	if c := float64(p.Change); c < 0.25 || c > 0.35 || p.ChangeCI[0] > p.Change || p.ChangeCI[1] < p.Change || p.P > 0.001 ||
		math.Abs(float64(p.PRank)-2/252.0) > 1e-9 {
		t.Errorf("sqrt.Sunk: change %v, CI %v, p %v, p rank %v; want about +30 %% inside its CI, p < 0.001, p rank 2/252 (every new fork slower)", p.Change, p.ChangeCI, p.P, p.PRank)
	}
	if !res.Worse() || res.Count(Regression) != 1 {
		t.Errorf("worse %v with %d regressions, want true with 1", res.Worse(), res.Count(Regression))
	}
	// The same change below the threshold is no regression.
	if v := verdicts(Compare(load(t, base5File), load(t, slow5File), Options{Threshold: 0.5})); v["sqrt.Sunk#avgt"] != Unchanged {
		t.Errorf("threshold 50 %%: sqrt.Sunk is %s, want unchanged", v["sqrt.Sunk#avgt"])
	}
	// With 3 forks a side, Welch's test finds the same +30 %; the rank
	// test cannot be significant (its p is at least 0.1), so it takes no
	// part rather than veto every verdict: a regression, decided by
	// Welch's test alone, and the pair's note says so.
	res = Compare(load(t, baseFile), load(t, slowFile), Options{Threshold: 0.05})
	p = res.Pairs[1]
	if p.Key != "sqrt.Sunk#avgt" || p.Verdict != Regression || p.P > 0.001 || math.Abs(float64(p.PRank)-0.1) > 1e-9 || p.RankTakesPart ||
		!strings.HasPrefix(p.Note, "decided by Welch's test on the fork means alone: the rank test cannot go below p = 0.1 with 3 and 3 forks") ||
		!res.Worse() || res.Family != 5 || res.Correction != Holm || !(p.PAdjusted < 0.05) {
		t.Errorf("3 forks a side: %s %s, p %v, p rank %v, rank takes part %v (%s), worse %v, family %d %s, adjusted p %v; want a regression by Welch alone, noted, family 5 under Holm",
			p.Key, p.Verdict, p.P, p.PRank, p.RankTakesPart, p.Note, res.Worse(), res.Family, res.Correction, p.PAdjusted)
	}
}

// TestBimodalForkMeansAtThreeForks: fork means that land in one of two
// states (counter.Inc1 on a 2-core VM: about 1.45 or 2.0 ns,
// whatever the build), all three of the base fast and all three of the
// new slow, fool Welch's test, which assumes normal fork means: +38 %
// with a tight interval and p < 0.001. The rank test, whose p cannot go
// below 0.1 with 3 a side, could only veto, so it takes no part: the
// verdict is Welch's, and its note names the risk and the remedy (more
// forks). With 5 a side the rank test takes part and vetoes fork means
// that overlap (TestFiveForksAClearShift).
func TestBimodalForkMeansAtThreeForks(t *testing.T) {
	const key = "counter.Inc1#avgt"
	base := scatter(t, load(t, baseFile), key, 1.45/12, 1.46/12, 1.44/12)
	next := scatter(t, load(t, rerunFile), key, 2.0/12, 2.02/12, 1.99/12)
	res := Compare(base, next, Options{Threshold: 0.05})
	p := res.Pairs[0]
	if p.Key != key || !(p.P < 0.01) || !(p.ChangeCI[0] > 0.05) {
		t.Fatalf("%s: Welch p %v, interval %v; want the case that fools it: p < 0.01, the interval beyond +5 %%", p.Key, p.P, p.ChangeCI)
	}
	if p.Verdict != Regression || p.RankTakesPart || !strings.Contains(p.Note, "cannot go below p = 0.1 with 3 and 3 forks") ||
		!strings.Contains(p.Note, "fork means that are not normal") {
		t.Errorf("bimodal 3 v 3: %s (%s), rank takes part %v; want a regression by Welch alone, its note naming the risk", p.Verdict, p.Note, p.RankTakesPart)
	}
	var text strings.Builder
	if err := Write(&text, res, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Decided by the parametric test alone:\n  - counter.Inc1 avgt: decided by Welch's") {
		t.Errorf("the text output does not list the note:\n%s", text.String())
	}
}

// TestFiveForksAClearShiftIsARegression: 5 forks a side whose means
// are all slower by 10 % (rank p 2/252 < 0.05) is a regression; with
// the sides' means interleaved, Welch may still find the mean shift but
// the rank test does not, and the forks it asks for are more than 5.
func TestFiveForksAClearShift(t *testing.T) {
	const key = "counter.Inc1#avgt"
	base := scatter(t, load(t, base5File), key, 1.0, 1.01, 0.99, 1.005, 0.995)
	next := scatter(t, load(t, base5File), key, 1.1, 1.11, 1.09, 1.105, 1.095)
	res := Compare(base, next, Options{Threshold: 0.05})
	if p := res.Pairs[0]; p.Key != key || p.Verdict != Regression || !res.Worse() || math.Abs(float64(p.PRank)-2/252.0) > 1e-9 {
		t.Errorf("5 v 5, +10 %%: %s %s (%s), p rank %v, worse %v; want a regression, p rank 2/252", p.Key, p.Verdict, p.Reason, p.PRank, res.Worse())
	}
	// Four of the new forks twice as slow, one faster than every fork
	// of the base: Welch's test finds the mean's shift, the rank test
	// does not (5 of the 25 pairs the other way: p 38/252 = 0.151), and
	// the forks it asks for are more than the 5 it had.
	next = scatter(t, load(t, base5File), key, 2.0, 2.01, 1.99, 2.005, 0.9)
	res = Compare(base, next, Options{Threshold: 0.05})
	p := res.Pairs[0]
	if !(p.P < 0.05) || !(p.ChangeCI[0] > 0.05) {
		t.Fatalf("5 v 5 overlapping: Welch p %v, interval %v; want significant, beyond +5 %%", p.P, p.ChangeCI)
	}
	if p.Verdict != Inconclusive || res.Worse() || math.Abs(float64(p.PRank)-38/252.0) > 1e-9 || p.ForksNeeded <= 5 ||
		!strings.Contains(p.Reason, "but the rank test does not (p = 0.151 with 5 and 5 forks: fork means of the two sides overlap)") {
		t.Errorf("5 v 5 overlapping: %s (%s), p rank %v, forks needed %d; want inconclusive for the rank test, more than 5 forks",
			p.Verdict, p.Reason, p.PRank, p.ForksNeeded)
	}
}

// TestCompareDirection checks that the unit decides what is worse:
// fewer ops per time and more time per op (5 forks a side, so that the
// rank test can be significant).
func TestCompareDirection(t *testing.T) {
	for _, tc := range []struct {
		key       string
		factor    float64 // on the time per op
		threshold float64
		want      Verdict
	}{
		{"counter.Inc1#thrpt", 1.3, 0.05, Regression}, // slower: fewer ops/us
		{"counter.Inc1#thrpt", 0.7, 0.05, Improvement},
		{"counter.Inc1#avgt", 0.7, 0.05, Improvement},
		{"list.Insert?size=1000#avgt", 1.3, 0.05, Regression},
		{"log.Classic#sample", 1.3, 0.05, Regression},
		// +6 %, its interval reaching below 5 %: not shown to be 5 % worse,
		// nor shown to be less
		{"counter.Inc1#avgt", 1.06, 0.05, Inconclusive},
		{"counter.Inc1#avgt", 1.01, 0.05, Unchanged},
		{"counter.Inc1#avgt", 1.06, 0, Regression},
	} {
		res := Compare(syntheticForks(1, nil, 5), syntheticForks(2, map[string]float64{tc.key: tc.factor}, 5), Options{Threshold: tc.threshold})
		if got := verdicts(res)[tc.key]; got != tc.want {
			t.Errorf("%s × %g at threshold %g: %s, want %s", tc.key, tc.factor, tc.threshold, got, tc.want)
		}
	}
}

func TestCompareUnmatchedAndFailed(t *testing.T) {
	base, next := load(t, baseFile), load(t, rerunFile)
	base.Runs = base.Runs[1:]      // counter.Inc1 avgt only in new
	next.Runs = next.Runs[:4]      // log.Classic sample only in base
	next.Runs[1].Status = "failed" // sqrt.Sunk failed in new
	next.Runs[1].Error = "fork 2: exit status 2"
	next.Runs[1].Primary = nil
	res := Compare(base, next, Options{Threshold: 0.05})
	if diff := cmp.Diff([]Run{runOf(&base.Runs[3])}, res.OnlyBase); diff != "" {
		t.Errorf("only in base (-want +got):\n%s", diff)
	}
	if len(res.OnlyNew) != 1 || res.OnlyNew[0].Key != "counter.Inc1#avgt" {
		t.Errorf("only in new = %+v, want counter.Inc1#avgt", res.OnlyNew)
	}
	p := res.Pairs[0]
	if p.Key != "sqrt.Sunk#avgt" || p.Verdict != Failed || p.Reason != "failed in new: fork 2: exit status 2" || !res.Worse() {
		t.Errorf("pair %s: %s (%s), worse %v; want failed in new, worse", p.Key, p.Verdict, p.Reason, res.Worse())
	}
}

func TestCompareConvertsUnits(t *testing.T) {
	base, next := load(t, baseFile), load(t, rerunFile)
	r := &next.Runs[0] // counter.Inc1 avgt in ns/op: make it us/op
	r.Primary.ScoreUnit, r.Primary.Score = "us/op", r.Primary.Score/1000
	for _, fork := range r.Primary.RawData {
		for i := range fork {
			fork[i] /= 1000
		}
	}
	res := Compare(base, next, Options{Threshold: 0.05})
	if p := res.Pairs[0]; p.Unit != "ns/op" || p.Verdict != Unchanged || math.Abs(float64(p.Change)) > 0.05 {
		t.Errorf("ns/op vs us/op: unit %s, %s, change %v; want ns/op, unchanged", p.Unit, p.Verdict, p.Change)
	}
	for _, tc := range []struct {
		from, to string
		want     float64
		ok       bool
	}{
		{"us/op", "ns/op", 1000, true}, {"ops/us", "ops/s", 1e6, true}, {"ops/s", "ops/ms", 1e-3, true},
		{"ns/op", "ops/ns", 0, false}, {"allocs/op", "ns/op", 0, false},
	} {
		if got, ok := Conversion(tc.from, tc.to); ok != tc.ok || math.Abs(got-tc.want) > 1e-9*tc.want {
			t.Errorf("Conversion(%s, %s) = %v, %v; want %v, %v", tc.from, tc.to, got, ok, tc.want, tc.ok)
		}
	}
}

// TestCompareOverflowIsInconclusive: finite scores near the largest
// float64 overflow Welch's sums (a variance of +Inf, a NaN p-value);
// that is no evidence of "unchanged".
func TestCompareOverflowIsInconclusive(t *testing.T) {
	base, new := synthetic(1, nil), synthetic(2, nil)
	const key = "counter.Inc1#avgt"
	for _, r := range []*report.Report{base, new} {
		for i := range r.Runs {
			if r.Runs[i].Key != key {
				continue
			}
			m := r.Runs[i].Primary
			m.Score = 1.3e308
			for _, fork := range m.RawData {
				for j := range fork {
					fork[j] = report.Float([]float64{1e308, 1.7e308}[j%2])
				}
			}
		}
	}
	res := Compare(base, new, Options{Threshold: 0.05})
	for _, p := range res.Pairs {
		if p.Key == key && (p.Verdict != Inconclusive || !strings.Contains(p.Reason, "overflow")) {
			t.Errorf("%s: %s (%s), p %v, CI %v; want inconclusive: the statistics overflow", key, p.Verdict, p.Reason, p.P, p.ChangeCI)
		}
	}
}

// One fork a side says nothing about how much processes differ, however
// many iterations it ran: no test, and never a verdict from iterations.
func TestCompareOneForkIsInconclusive(t *testing.T) {
	base, next := load(t, baseFile), load(t, slowFile)
	for _, r := range []*report.Run{&base.Runs[1], &next.Runs[1]} { // sqrt.Sunk, 30 % slower in next
		r.Primary.RawData = r.Primary.RawData[:1]
	}
	p := Compare(base, next, Options{Threshold: 0.05}).Pairs[1]
	if p.Key != "sqrt.Sunk#avgt" || p.Verdict != Inconclusive || !strings.Contains(p.Reason, "1 and 1 forks") || p.New.Forks != 1 {
		t.Errorf("%s with one fork a side: %s (%s), %d forks; want inconclusive for want of forks", p.Key, p.Verdict, p.Reason, p.New.Forks)
	}
}

// A report measured on a busy machine gives no verdict: two runs of one
// build measured minutes apart under a load of 30 on 2 CPUs differed by
// up to 117 %, a change of the machine, not of the code.
func TestCompareOnABusyMachineIsInconclusive(t *testing.T) {
	base, slow := load(t, base5File), load(t, slow5File)
	slow.Env.Check = &report.EnvCheck{Diagnostics: []report.Diagnostic{{Code: "ENV_LOAD", Severity: "warning",
		Evidence: map[string]float64{"load1": 31.5, "available_cpus": 2}}}}
	res := Compare(base, slow, Options{Threshold: 0.05})
	p := res.Pairs[1]
	if p.Key != "sqrt.Sunk#avgt" || p.Verdict != Inconclusive || !strings.Contains(p.Reason, "would be a regression") ||
		!strings.Contains(p.Reason, "load 31.5 with 2 CPUs") || res.Worse() {
		t.Errorf("%s on a busy machine: %s (%s), worse %v; want inconclusive naming the load", p.Key, p.Verdict, p.Reason, res.Worse())
	}
	// An info-level load (half the CPUs busy) does not stop a verdict.
	slow.Env.Check.Diagnostics[0].Severity = "info"
	if v := Compare(base, slow, Options{Threshold: 0.05}).Pairs[1].Verdict; v != Regression {
		t.Errorf("with load at half the CPUs: %s, want regression", v)
	}
}

// A run whose body the compiler removed (DEAD_CODE) measures the
// harness's loop, which differs between processes: no verdict from it,
// on either side. Other warnings do not stop a verdict.
func TestCompareDeadCodeIsInconclusive(t *testing.T) {
	for _, side := range []string{"base", "new"} {
		base, slow := load(t, base5File), load(t, slow5File)
		r := &slow.Runs[1]
		if side == "base" {
			r = &base.Runs[1]
		}
		r.Diagnostics = append(r.Diagnostics, report.Diagnostic{Code: "DEAD_CODE", Severity: "warning"})
		res := Compare(base, slow, Options{Threshold: 0.05})
		p := res.Pairs[1]
		if p.Key != "sqrt.Sunk#avgt" || p.Verdict != Inconclusive || !strings.Contains(p.Reason, "would be a regression") ||
			!strings.Contains(p.Reason, side+" is flagged DEAD_CODE") || res.Worse() {
			t.Errorf("DEAD_CODE in %s: %s %s (%s), worse %v; want inconclusive naming the side", side, p.Key, p.Verdict, p.Reason, res.Worse())
		}
		r.Diagnostics[len(r.Diagnostics)-1].Code = "HIGH_VARIANCE"
		if v := Compare(base, slow, Options{Threshold: 0.05}).Pairs[1].Verdict; v != Regression {
			t.Errorf("HIGH_VARIANCE in %s: %s, want regression", side, v)
		}
	}
}

// scatter returns r with run key's forks moved apart: fork i's values
// times factors[i], and the score their mean, as a noisy batch's forks.
func scatter(t *testing.T, r *report.Report, key string, factors ...float64) *report.Report {
	t.Helper()
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.Key != key {
			continue
		}
		m := *run.Primary
		if len(m.RawData) != len(factors) {
			t.Fatalf("%s has %d forks, want %d", key, len(m.RawData), len(factors))
		}
		sum, n := 0.0, 0
		m.RawData = make([][]report.Float, len(factors))
		for f, fork := range run.Primary.RawData {
			for _, v := range fork {
				m.RawData[f] = append(m.RawData[f], v*report.Float(factors[f]))
				sum += float64(v) * factors[f]
				n++
			}
		}
		m.Score = report.Float(sum / float64(n))
		run.Primary = &m
		return r
	}
	t.Fatalf("no run %s", key)
	return nil
}

// TestWideIntervalIsNotUnchanged: a change whose interval is wide shows
// nothing either way. It is inconclusive, the reason says "no change
// shown" with the forks that would decide it, and it is never
// "unchanged" — at threshold 5 %, nor at threshold 0, where no interval
// lies within ±0 and only a significant change is a verdict.
func TestWideIntervalIsNotUnchanged(t *testing.T) {
	const key = "counter.Inc1#avgt"
	for _, th := range []float64{0.05, 0} {
		res := Compare(load(t, baseFile), scatter(t, load(t, rerunFile), key, 0.45, 1.0, 1.6), Options{Threshold: th})
		p := res.Pairs[0]
		lo, hi := float64(p.ChangeCI[0]), float64(p.ChangeCI[1])
		if p.Key != key || !(lo < -0.3 && hi > 0.3) {
			t.Fatalf("threshold %g: %s interval [%v, %v], want one wider than ±30 %%", th, p.Key, lo, hi)
		}
		advice := fmt.Sprintf("about %d forks a side would", p.ForksNeeded)
		if p.ForksNeeded > adviceForks {
			advice = "more than 1000 forks a side would be needed"
		}
		if p.Verdict != Inconclusive || !strings.HasPrefix(p.Reason, "no change shown: the 95% interval") ||
			p.ForksNeeded <= 3 || !strings.Contains(p.Reason, advice) {
			t.Errorf("threshold %g: %s (%s), forks needed %d; want inconclusive, no change shown, more than 3 forks", th, p.Verdict, p.Reason, p.ForksNeeded)
		}
	}
	// A tight interval within ±5 % is unchanged; the same pair at
	// threshold 0 is not significant, so no change is shown.
	res := Compare(load(t, baseFile), load(t, rerunFile), Options{Threshold: 0})
	if n := res.Count(Unchanged); n != 0 {
		t.Errorf("threshold 0: %d pairs unchanged, want none (nothing lies within ±0)", n)
	}
	p := res.Pairs[0]
	if p.Verdict != Inconclusive || !strings.Contains(p.Reason, "no change shown:") || !strings.Contains(p.Reason, "holds 0") {
		t.Errorf("threshold 0, A/A: %s %s (%s); want inconclusive, no change shown", p.Key, p.Verdict, p.Reason)
	}
	if v := Compare(load(t, baseFile), load(t, rerunFile), Options{Threshold: 0.05}).Pairs[0].Verdict; v != Unchanged {
		t.Errorf("threshold 5 %%, interval [−3.4 %%, +3.5 %%]: %s, want unchanged", v)
	}
}

// TestSignificantButUndecided: a change that is significant but whose
// interval reaches under the threshold is shown, not shown to reach it:
// inconclusive, and the reason says so rather than "no change shown".
func TestSignificantButUndecided(t *testing.T) {
	res := Compare(synthetic(1, nil), synthetic(2, map[string]float64{"counter.Inc1#avgt": 1.06}), Options{Threshold: 0.05})
	for _, p := range res.Pairs {
		if p.Key != "counter.Inc1#avgt" {
			continue
		}
		if p.Verdict != Inconclusive || !(p.P < 0.05) || !strings.HasPrefix(p.Reason, "a change is shown, but not whether it reaches ±5%") {
			t.Errorf("+6 %% at threshold 5 %%: %s, p %v (%s); want inconclusive, a change shown", p.Verdict, p.P, p.Reason)
		}
		return
	}
	t.Fatal("no counter.Inc1#avgt pair")
}

// TestDeclaredOrderNote: a side whose runs' forks ran back to back
// (declared order, several runs, forks to spread) gets a note that names
// it and says how to run batches for compare; another order, a single
// run or a report that does not record its order gets none, and no
// verdict changes.
func TestDeclaredOrderNote(t *testing.T) {
	order := func(r *report.Report, kind string) *report.Report {
		if kind != "" {
			r.Order = &report.Order{Kind: kind}
		}
		return r
	}
	single := func(r *report.Report) *report.Report {
		r.Runs = r.Runs[:1]
		return r
	}
	plain := Compare(load(t, baseFile), load(t, slowFile), Options{Threshold: 0.05})
	for _, c := range []struct {
		name      string
		base, new *report.Report
		want      string // the note's start; "" for none
	}{
		{"both declared", order(load(t, baseFile), "declared"), order(load(t, slowFile), "declared"), "base and new ran in declared order"},
		{"new declared", order(load(t, baseFile), "interleaved"), order(load(t, slowFile), "declared"), "new ran in declared order"},
		{"base declared", order(load(t, baseFile), "declared"), order(load(t, slowFile), "random"), "base ran in declared order"},
		{"interleaved", order(load(t, baseFile), "interleaved"), order(load(t, slowFile), "interleaved"), ""},
		{"order not recorded", load(t, baseFile), load(t, slowFile), ""},
		{"one run a side", single(order(load(t, baseFile), "declared")), single(order(load(t, slowFile), "declared")), ""},
	} {
		res := Compare(c.base, c.new, Options{Threshold: 0.05})
		var text strings.Builder
		if err := Write(&text, res, "text"); err != nil {
			t.Fatal(err)
		}
		// Every comparison of two batches says that drift between them
		// is not in its intervals (TestDriftNote); the order note is
		// the other.
		if len(res.Notes) == 0 || res.Notes[len(res.Notes)-1] != driftText {
			t.Fatalf("%s: notes %q, want the drift note last", c.name, res.Notes)
		}
		res.Notes = res.Notes[:len(res.Notes)-1]
		if c.want == "" {
			if len(res.Notes) != 0 || strings.Count(text.String(), "Note:") != 1 {
				t.Errorf("%s: notes %q, want none", c.name, res.Notes)
			}
			continue
		}
		if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], c.want) || !strings.Contains(res.Notes[0], "--order interleaved") {
			t.Errorf("%s: notes %q, want one starting %q that names --order interleaved", c.name, res.Notes, c.want)
		}
		if !strings.Contains(text.String(), "\nNote: "+c.want) {
			t.Errorf("%s: the text output lacks the note:\n%s", c.name, text.String())
		}
		if c.name != "one run a side" && !cmp.Equal(verdicts(res), verdicts(plain)) {
			t.Errorf("%s: verdicts %v, want those without the note %v", c.name, verdicts(res), verdicts(plain))
		}
	}
}

// TestDriftNote: a comparison of two batches says its intervals leave
// the drift between batches out and names ab; one of the two reports
// of an ab batch (paired or duet order) does not.
func TestDriftNote(t *testing.T) {
	for _, kind := range []string{"paired", "duet"} {
		a, b := load(t, baseFile), load(t, slowFile)
		a.Order, b.Order = &report.Order{Kind: kind}, &report.Order{Kind: kind}
		if res := Compare(a, b, Options{}); slices.Contains(res.Notes, driftText) {
			t.Errorf("the reports of one %s batch: notes %q, want no drift note", kind, res.Notes)
		}
	}
	res := Compare(load(t, baseFile), load(t, slowFile), Options{})
	if !slices.Contains(res.Notes, driftText) || !strings.Contains(driftText, "benchspec ab") {
		t.Errorf("two batches: notes %q, want the drift note naming benchspec ab", res.Notes)
	}
}

// TestCompareDecidesAtTheDefaults: with the built-in default forks a
// side, the rank test takes part and compare decides: a +10 % change of
// one run is a regression, the rest of two runs of one build unchanged.
func TestCompareDecidesAtTheDefaults(t *testing.T) {
	forks := spec.DefaultSettings().Forks
	res := Compare(syntheticForks(1, nil, forks), syntheticForks(2, map[string]float64{"sqrt.Sunk#avgt": 1.1}, forks), Options{Threshold: 0.05})
	want := map[string]Verdict{
		"counter.Inc1#avgt": Unchanged, "sqrt.Sunk#avgt": Regression, "list.Insert?size=1000#avgt": Unchanged,
		"counter.Inc1#thrpt": Unchanged, "log.Classic#sample": Unchanged,
	}
	if diff := cmp.Diff(want, verdicts(res)); diff != "" {
		t.Errorf("%d forks a side, verdicts (-want +got):\n%s", forks, diff)
	}
	for _, p := range res.Pairs {
		if !p.RankTakesPart || p.Note != "" {
			t.Errorf("%s: rank test takes part %v, note %q; want it part of every verdict at %d forks", p.Key, p.RankTakesPart, p.Note, forks)
		}
	}
}

// TestForksAdviceIsCapped: a reason suggests up to 1000 forks a side;
// beyond, it says the difference is too small to decide at this noise
// rather than "about 6783 forks a side would decide it". The JSON keeps
// the estimate.
func TestForksAdviceIsCapped(t *testing.T) {
	for _, c := range []struct {
		k    int
		ok   bool
		want string
	}{
		{12, true, ": about 12 forks a side would decide it"},
		{1000, true, ": about 1000 forks a side would decide it"},
		{6783, true, ": more than 1000 forks a side would be needed to decide it; the difference is too small to decide at this noise"},
		{0, false, ": more than 1000 forks a side would be needed to decide it; the difference is too small to decide at this noise"},
	} {
		if got := forksAdvice(c.k, c.ok, "forks a side", "decide it"); got != c.want {
			t.Errorf("forksAdvice(%d, %v) = %q, want %q", c.k, c.ok, got, c.want)
		}
	}
}
