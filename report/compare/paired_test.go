package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
)

// schedule is the order executor.OrderPaired gives a run's forks
// (randomized ABBA blocks: pair i at positions 2i and 2i+1), for the
// simulations here; executor's TestSchedulePaired checks the real one.
func schedule(pairs int, seed uint64) []Build {
	rng := rand.New(rand.NewPCG(seed, 0xab_ba))
	out := make([]Build, 0, 2*max(pairs, 0))
	for i := 0; i+1 < pairs; i += 2 {
		if rng.IntN(2) == 0 {
			out = append(out, BuildA, BuildB, BuildB, BuildA)
		} else {
			out = append(out, BuildB, BuildA, BuildA, BuildB)
		}
	}
	if pairs > 0 && pairs%2 == 1 {
		if rng.IntN(2) == 0 {
			out = append(out, BuildA, BuildB)
		} else {
			out = append(out, BuildB, BuildA)
		}
	}
	return out
}

// machine simulates a batch that runs a schedule's forks: fork k (in the
// order they run) of build B costs factor times A's, times the machine's
// state at k (drift(k), the same for both builds), times 1 + noise·N(0,1)
// of its own.
func machine(rng *rand.Rand, order []Build, factor, noise float64, drift func(k int) float64) []PairedFork {
	out := make([]PairedFork, len(order))
	for k, b := range order {
		v := 100 * drift(k) * (1 + noise*rng.NormFloat64())
		if b == BuildB {
			v *= factor
		}
		out[k] = PairedFork{Build: b, Mean: v}
	}
	return out
}

func flat(int) float64 { return 1 }

func pairedRun(key string, forks []PairedFork) PairedRun {
	return PairedRun{Run: Run{Key: key, Benchmark: key, Mode: "avgt"}, Unit: "ns/op", Forks: forks}
}

// TestPairedDriftCancels: a machine that slows by 1 % per fork over the
// batch (+60 % from first fork to last) moves both builds alike, and
// the pairs of a randomized ABBA schedule see none of it: an A/A batch
// reads about 0 and unchanged at 1 %. The same forks judged as two
// samples (Compare's Welch test) see the drift as spread and cannot
// tell; and the same drift with A's forks all first would read as a
// change of its own, which is what two batches in a row measure.
func TestPairedDriftCancels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	drift := func(k int) float64 { return 1 + 0.01*float64(k) }
	order := schedule(30, 9)
	res, err := ComparePaired([]PairedRun{pairedRun("drift", machine(rng, order, 1, 0.005, drift))}, Options{Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Pairs[0]
	if math.Abs(float64(p.Change)) > 0.003 || p.Verdict != Unchanged {
		t.Errorf("A/A with +1 %% per fork of drift: change %+.2f%% %v, %s (%s); want about 0, unchanged", 100*float64(p.Change), p.ChangeCI, p.Verdict, p.Reason)
	}
	// A's 30 forks, then B's 30: the drift is the whole difference.
	var seq []Build
	for range 30 {
		seq = append(seq, BuildA)
	}
	for range 30 {
		seq = append(seq, BuildB)
	}
	forks := machine(rng, seq, 1, 0.005, drift)
	var a, b []float64
	for _, f := range forks {
		if f.Build == BuildA {
			a = append(a, f.Mean)
		} else {
			b = append(b, f.Mean)
		}
	}
	w, _ := stats.WelchTest(a, b, 0.05)
	if !(w.P < 0.001) || !(w.Diff/mean(a) > 0.2) {
		t.Errorf("A then B, two samples: Welch diff %+.1f%%, p %v; want the drift read as a change of +30 %%", 100*w.Diff/mean(a), w.P)
	}
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// TestPairedFindsPlanted2Percent: B 2 % slower, each fork 1 % noise, a
// drifting machine, 30 pairs, threshold 1 %: a regression in at least
// 90 % of 200 simulated batches (the bar is 9 of 10), with an
// estimate within a point of +2 %; never an improvement or unchanged.
func TestPairedFindsPlanted2Percent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	found, worst := 0, 0.0
	for trial := range 200 {
		phase := rng.Float64() * 6
		drift := func(k int) float64 { return 1 + 0.03*math.Sin(phase+float64(k)/5) }
		res, err := ComparePaired([]PairedRun{pairedRun("planted", machine(rng, schedule(30, uint64(trial)), 1.02, 0.01, drift))}, Options{Threshold: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Pairs[0]
		switch p.Verdict {
		case Regression:
			found++
		case Improvement, Unchanged:
			t.Fatalf("trial %d: %s (change %+.2f%%, %v), want a regression or inconclusive", trial, p.Verdict, 100*float64(p.Change), p.ChangeCI)
		}
		worst = math.Max(worst, math.Abs(float64(p.Change)-0.02))
	}
	if found < 180 {
		t.Errorf("planted +2 %%: %d regressions of 200, want at least 180", found)
	}
	if worst > 0.01 {
		t.Errorf("planted +2 %%: an estimate %.2f points off, want within 1", 100*worst)
	}
	t.Logf("planted +2 %%, 30 pairs, 1 %% noise, threshold 1 %%: %d of 200 regressions; estimates within ±%.2f points", found, 100*worst)
}

// TestPairedAANeverAVerdict: in 1000 simulated A/A batches of a family of
// 10 runs, 20 pairs each, with drift, 1 % noise and forks that land in a
// fast or a slow state (a third of them 30 % slower, whichever build),
// the share of batches with any regression or improvement stays under
// alpha, at threshold 0 and at 1 % alike (a regression needs the
// interval above 0 either way). Without the family's correction the
// same batches would raise one far more often.
func TestPairedAANeverAVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("1000 simulated batches")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	alarms := map[string]int{}
	for trial := range 1000 {
		var runs []PairedRun
		for r := range 10 {
			phase := rng.Float64() * 6
			drift := func(k int) float64 { return 1 + 0.03*math.Sin(phase+float64(k)/5) }
			forks := machine(rng, schedule(20, uint64(trial*10+r)), 1, 0.01, drift)
			if r%2 == 1 { // bimodal processes
				for i := range forks {
					if rng.IntN(3) == 0 {
						forks[i].Mean *= 1.3
					}
				}
			}
			runs = append(runs, pairedRun("run"+string(rune('a'+r)), forks))
		}
		for _, c := range []struct {
			name string
			opts Options
		}{{"threshold 0", Options{}}, {"threshold 1%", Options{Threshold: 0.01}}, {"threshold 0, none", Options{Correction: NoCorrection}}} {
			res, err := ComparePaired(runs, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count(Regression)+res.Count(Improvement) > 0 {
				alarms[c.name]++
			}
			if res.Family != 10 {
				t.Fatalf("family %d, want 10", res.Family)
			}
		}
	}
	// alpha 0.05 over 1000 batches: binomial sd 0.7 %; allow 3 sd.
	for _, name := range []string{"threshold 0", "threshold 1%"} {
		if n := alarms[name]; n > 70 {
			t.Errorf("%s: %d of 1000 A/A batches with a verdict, want at most about 50 (alpha)", name, n)
		}
	}
	if n := alarms["threshold 0, none"]; n < 3*max(alarms["threshold 0"], 10) {
		t.Errorf("no correction: %d of 1000 A/A batches with a verdict; want far more than with Bonferroni (%d)", n, alarms["threshold 0"])
	}
	t.Logf("A/A, families of 10 runs × 20 pairs, 1000 batches: with a verdict %v", alarms)
}

// TestPairedInput: a pair of two forks of one build is an error naming
// the run and the forks; failed forks drop their pairs, and fewer than
// two pairs left is inconclusive with the reason.
func TestPairedInput(t *testing.T) {
	_, err := ComparePaired([]PairedRun{pairedRun("x", []PairedFork{{Build: BuildA, Mean: 1}, {Build: BuildA, Mean: 1}})}, Options{})
	if err == nil || !strings.Contains(err.Error(), "run x: forks 1 and 2 are A and A") {
		t.Errorf("two A forks in a pair: error %v, want one naming the run and the forks", err)
	}
	res, err := ComparePaired([]PairedRun{pairedRun("x", []PairedFork{{Build: BuildA, Mean: 1}, {Build: BuildB, Mean: math.NaN()}, {Build: BuildB, Mean: 2}, {Build: BuildA, Mean: 1}, {Build: BuildA, Mean: 1}})}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Pairs[0]; p.Verdict != Inconclusive || !strings.HasPrefix(p.Reason, "1 complete pairs (1 dropped") || res.Family != 0 {
		t.Errorf("one complete pair: %s (%s), family %d; want inconclusive, 1 dropped, no family", p.Verdict, p.Reason, res.Family)
	}
}

// TestPairedReports: PairedRuns matches the k-th A of a run's order with
// base's fork k and the k-th B with new's; a planted +20 % on 12 pairs
// is a regression, the unit converted; a run without an order or failed
// on a side says so and is in no family.
func TestPairedReports(t *testing.T) {
	base, slow := syntheticForks(1, nil, 12), syntheticForks(2, map[string]float64{"sqrt.Sunk#avgt": 1.2}, 12)
	order := map[string][]Build{}
	for _, r := range base.Runs {
		order[r.Key] = schedule(12, 1)
	}
	delete(order, "list.Insert?size=1000#avgt")
	slow.Runs[4].Status, slow.Runs[4].Error, slow.Runs[4].Primary = report.StatusFailed, "fork 3: exit status 2", nil
	res, err := ComparePairedReports(base, slow, order, Options{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	got := verdicts(res)
	if got["sqrt.Sunk#avgt"] != Regression || got["counter.Inc1#avgt"] != Unchanged || got["log.Classic#sample"] != Failed ||
		got["list.Insert?size=1000#avgt"] != Inconclusive || res.Family != 3 || res.Test != PairedTest {
		t.Errorf("verdicts %v, family %d, test %s; want sqrt.Sunk a regression, counter.Inc1 unchanged, log.Classic failed, list.Insert inconclusive (no order), family 3",
			got, res.Family, res.Test)
	}
	for _, p := range res.Pairs {
		if p.Key == "sqrt.Sunk#avgt" && (math.Abs(float64(p.Change)-0.2) > 0.02 || p.Base.Forks != 12) {
			t.Errorf("sqrt.Sunk: change %v, %d forks of A; want about +20 %%, 12", p.Change, p.Base.Forks)
		}
		if p.Key == "list.Insert?size=1000#avgt" && !strings.Contains(p.Reason, "order of this run's forks is missing") {
			t.Errorf("list.Insert: %s, want the order missing", p.Reason)
		}
	}
	var text strings.Builder
	if err := Write(&text, res, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "alternated in one batch, paired") || !strings.Contains(text.String(), "The 3 tested runs are one family: Bonferroni") {
		t.Errorf("text output does not say how the pairs were judged:\n%s", text.String())
	}
}

func distuvT(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}

// hogHit is the share of forks a CPU hog slows in busyMachine.
var hogHit = 0.1

// hogPairs are the pairs of a planted batch in TestPairedBesideAHog.
var hogPairs = 60

// busyMachine returns forks of a schedule on a machine beside a CPU hog:
// each fork 1 % apart, and with probability hogHit slowed 1.3–2.5× (the
// hog took its core for part of its life); B costs factor times A.
func busyMachine(rng *rand.Rand, order []Build, factor float64) []PairedFork {
	forks := machine(rng, order, factor, 0.01, flat)
	for i := range forks {
		if rng.Float64() < hogHit {
			forks[i].Mean *= 1.3 + 1.2*rng.Float64()
		}
	}
	return forks
}

// TestPairedBesideAHog: forks that a busy machine slowed by 1.3–2.5× at
// random (one in ten, so nearly one pair in five has such a fork) make
// the log ratios heavy-tailed: a mean and a t interval move with every
// such fork, the signed-rank test and the Hodges–Lehmann interval by
// one rank. A planted +2 % on 60 pairs at threshold 1 % is a regression
// in at least 80 % of 200 batches (171 with these seeds), where a t
// interval on the same pairs finds it in a few; and in 1000 A/A batches
// of 10 runs × 30 pairs at ab's alpha, about alpha have a regression or
// an improvement.
func TestPairedBesideAHog(t *testing.T) {
	if testing.Short() {
		t.Skip("1200 simulated batches")
	}
	rng := rand.New(rand.NewPCG(10, 11))
	found, foundT := 0, 0
	for trial := range 200 {
		forks := busyMachine(rng, schedule(hogPairs, uint64(trial)), 1.02)
		res, err := ComparePaired([]PairedRun{pairedRun("hog", forks)}, Options{Threshold: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		if res.Pairs[0].Verdict == Regression {
			found++
		}
		d, _, _, _, _ := logRatios(pairedRun("hog", forks))
		m, sd := meanSD(d)
		if m-distuvT975(len(d)-1)*sd/math.Sqrt(float64(len(d))) > math.Log1p(0.01) {
			foundT++
		}
	}
	if found < 160 || found < 5*foundT {
		t.Errorf("+2 %% beside a hog, %d pairs: %d of 200 regressions (a t interval: %d), want at least 160 and far more than t", hogPairs, found, foundT)
	}
	alarms := 0
	for trial := range 1000 {
		var runs []PairedRun
		for r := range 10 {
			runs = append(runs, pairedRun(string(rune('a'+r)), busyMachine(rng, schedule(30, uint64(trial*10+r)), 1)))
		}
		res, err := ComparePaired(runs, Options{Threshold: 0.01, Alpha: SequenceAlpha})
		if err != nil {
			t.Fatal(err)
		}
		if res.Count(Regression)+res.Count(Improvement) > 0 {
			alarms++
		}
	}
	// alpha 0.01 over 1000 families: binomial sd 0.3 %; allow 3 sd.
	if alarms > 20 {
		t.Errorf("A/A beside a hog, families of 10 runs × 30 pairs at threshold 1 %%: %d of 1000 with a verdict, want at most about 10 (alpha %g)", alarms, SequenceAlpha)
	}
	t.Logf("beside a hog, threshold 1 %%: +2 %% on %d pairs found in %d of 200 (t interval %d); A/A: %d of 1000 families of 10 runs × 30 pairs with a verdict", hogPairs, found, foundT, alarms)
}

func meanSD(x []float64) (float64, float64) {
	m := mean(x)
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(len(x)-1))
}

func distuvT975(df int) float64 { return distuvT(df) }

// A duet's pair is judged iteration by iteration: each iteration of B
// against the one of A that ran in the same seconds, the pair's log
// ratio their mean. Without the iterations (or with one missing) it is
// the log ratio of the forks' means.
func TestDuetPairsIterationByIteration(t *testing.T) {
	a := PairedFork{Build: BuildA, Mean: 2.5, Values: []float64{1, 4}}
	b := PairedFork{Build: BuildB, Mean: 2.65, Values: []float64{1.3, 4}}
	if got, want := pairLogRatio(a, b), math.Log(1.3)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("in step: %v, want %v, the mean of ln(1.3/1) and ln(4/4)", got, want)
	}
	for _, v := range [][]float64{nil, {1.3, math.NaN()}, {1.3}} {
		b.Values = v
		if got, want := pairLogRatio(a, b), math.Log(2.65/2.5); math.Abs(got-want) > 1e-12 {
			t.Errorf("values %v: %v, want %v, the log ratio of the means", v, got, want)
		}
	}
}

// TestPairedRunsPairIterationsOnlyOfDuets: a pair's values pair by
// iteration only when both its forks ran in a duet (a duet batch that
// turned sequential midway has pairs of both kinds).
func TestPairedRunsPairIterationsOnlyOfDuets(t *testing.T) {
	base, next := syntheticForks(1, nil, 3), syntheticForks(2, nil, 3)
	const key = "sqrt.Sunk#avgt"
	duets := map[*report.Report][]bool{base: {true, true, false}, next: {true, false, false}}
	for rep, flags := range duets {
		for i := range rep.Runs {
			if rep.Runs[i].Key == key {
				for f := range rep.Runs[i].Forks {
					rep.Runs[i].Forks[f].Duet = flags[f]
				}
			}
		}
	}
	runs, _, _, _ := PairedRuns(base, next, map[string][]Build{key: schedule(3, 1)})
	var got []bool
	for _, r := range runs {
		if r.Key == key {
			for i := 0; i+1 < len(r.Forks); i += 2 {
				got = append(got, len(r.Forks[i].Values) == 5 && len(r.Forks[i+1].Values) == 5)
			}
			for _, f := range r.Forks {
				if f.Values != nil && len(f.Values) != 5 {
					t.Errorf("a fork's values: %v, want its 5 measured values or none", f.Values)
				}
			}
		}
	}
	if want := []bool{true, false, false}; !cmp.Equal(got, want) {
		t.Errorf("pairs in step %v, want %v: only pair 1 had both forks in a duet", got, want)
	}
}
