package compare

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/benchspec/benchspec/internal/forkstat"
	"github.com/benchspec/benchspec/report"
)

// Two builds, one batch.
//
// Two batches run one after the other differ by the machine's drift as
// well as by the code: on the README's VM, two batches of one build 20 s
// apart gave steady.Spin +3.6 % [+2.7 %, +4.6 %], a false regression no
// statistic over two separate samples can tell from a change. A batch
// that runs the forks of both builds in alternation gives each B fork an
// A fork that ran in the same seconds, and the difference of the pair
// carries the code's change and little of the machine's state.
//
// The schedule is randomized ABBA blocks (executor.OrderPaired): blocks of two pairs,
// each AB BA or BA AB at random. Within a block the order is balanced, so
// a drift that is linear over the block's four forks adds +d to one
// pair's difference and −d to the other's and cancels in their mean; the
// random choice of each block keeps a periodic disturbance from lining
// up with one build (Abedi and Brecht's randomized multiple interleaved
// trials, ICPE 2017).
//
// The analysis (ComparePaired) pairs the forks the schedule laid out
// side by side — positions 2i and 2i+1 — and works on dᵢ = ln(Bᵢ/Aᵢ),
// the log ratio of the pair's fork means: a multiplicative effect of the
// machine (a slower core, a busy neighbour) on both forks of a pair
// cancels in it, and the change is a ratio whichever way the unit runs.
// The pairs are the experimental unit, as forks are of one build. The
// test is the Wilcoxon signed-rank test on the dᵢ, and the change its
// Hodges–Lehmann estimate exp(median of the Walsh averages) − 1 with the
// interval the test inverts (the shifts it does not reject at Alpha):
// it assumes only that the dᵢ are symmetric about their centre, which
// the random order within each pair gives, and a fork that a busy
// machine slowed 2× moves it by one rank where it moves a mean and a t
// interval by its size (docs/statistics.md has the simulated rates; for
// normal ratios it is 95 % as efficient as t). A bootstrap was not taken: random, and with 10–30 pairs its interval is
// narrower than the data warrant. The verdict is compare's: beyond
// ±Threshold with the whole interval a regression or an improvement,
// within it unchanged, otherwise inconclusive, with Holm's correction
// over the runs of the batch (the p-value of a change beyond ±Threshold
// is the signed-rank test's of dᵢ − ln(1 ± Threshold), which agrees with
// the interval exactly). A run with too few pairs for the signed-rank
// test to reach the family's strictest level (2/2ⁿ with n pairs: 6 pairs
// at a family of one, 11 at a family of 50, at alpha 0.05) is judged by
// the paired t-test on the mean log ratio instead, and its note says so.

// PairedTest names the tests of a paired comparison in Result.Test.
const PairedTest = "wilcoxon-signed-rank+hodges-lehmann-log-ratio"

// Build is one of the two builds of a batch that runs both.
type Build byte

// The two builds: A the base, B the new one.
const (
	BuildA Build = 'A'
	BuildB Build = 'B'
)

func (b Build) String() string { return string(b) }

// PairedFork is one fork of a paired run: its build and its mean (the
// mean of its measured values of the primary metric, in the run's
// unit); NaN for a fork that gave none (it failed), which drops its
// pair.
type PairedFork struct {
	Build Build
	Mean  float64
	// Values are the fork's measured values in iteration order, when
	// its iterations ran in step with its partner's (a duet): the pair's
	// log ratio is then the mean of its iterations' log ratios, each
	// iteration paired with the one that ran in the same seconds.
	Values []float64
}

// PairedRun is one run of a batch that ran two builds' forks in
// alternation: its forks of both builds in the order they ran, pair i at
// positions 2i and 2i+1 (executor.OrderPaired's order). A last fork without a
// partner is left out.
type PairedRun struct {
	Run
	Unit  string // of both builds' means
	Forks []PairedFork
}

// ComparePaired judges the change from A to B of every run from its
// pairs. It returns an error when a pair's two forks are of one build
// (the forks are not in a schedule's order); NaN means and failed forks
// are not errors (their pairs are dropped, and Pair.Reason says so when
// fewer than two are left).
func ComparePaired(runs []PairedRun, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	res := &Result{BaseName: "A", NewName: "B", Threshold: opts.Threshold, Alpha: opts.Alpha,
		Test: PairedTest, Correction: opts.Correction, Pairs: []Pair{}, OnlyBase: []Run{}, OnlyNew: []Run{}, Notes: []string{}}
	// The family is every run with two pairs or more; the signed-rank
	// test decides a run when it can reach the family's strictest level.
	m := 0
	for _, r := range runs {
		d, _, _, _, err := logRatios(r)
		if err != nil {
			return nil, err
		}
		if len(d) >= 2 {
			m++
		}
	}
	level := opts.Alpha
	if opts.Correction == Holm && m > 0 {
		level = opts.Alpha / float64(m)
	}
	var cands []candidate
	for _, r := range runs {
		p, c, err := pairedPair(r, opts, level)
		if err != nil {
			return nil, err
		}
		if c != nil {
			c.pair = len(res.Pairs)
			cands = append(cands, *c)
		}
		res.Pairs = append(res.Pairs, p)
	}
	decide(res, cands, opts)
	return res, nil
}

// logRatios are the log ratios ln(B/A) of the run's complete pairs, and
// the A and B means that make them; dropped counts the pairs left out
// for a fork without a positive, finite mean.
func logRatios(r PairedRun) (d, a, b []float64, dropped int, err error) {
	for i := 0; i+1 < len(r.Forks); i += 2 {
		x, y := r.Forks[i], r.Forks[i+1]
		if x.Build == y.Build || x.Build != BuildA && x.Build != BuildB || y.Build != BuildA && y.Build != BuildB {
			return nil, nil, nil, 0, fmt.Errorf("compare: run %s: forks %d and %d are %s and %s, but a pair is one fork of A and one of B, at positions 2i and 2i+1 of the order executor.OrderPaired gives", r.Key, i+1, i+2, x.Build, y.Build)
		}
		if x.Build == BuildB {
			x, y = y, x
		}
		if !(x.Mean > 0) || !(y.Mean > 0) || math.IsInf(x.Mean, 0) || math.IsInf(y.Mean, 0) {
			dropped++
			continue
		}
		a, b = append(a, x.Mean), append(b, y.Mean)
		d = append(d, pairLogRatio(x, y))
	}
	return d, a, b, dropped, nil
}

// pairLogRatio is ln(B/A) of one pair: the mean of its iterations' log
// ratios when both forks have their values in step (a duet), else the
// log ratio of their means.
func pairLogRatio(a, b PairedFork) float64 {
	if n := len(a.Values); n > 0 && n == len(b.Values) {
		sum := 0.0
		for j := range n {
			x, y := a.Values[j], b.Values[j]
			if !(x > 0 && y > 0) || math.IsInf(x, 0) || math.IsInf(y, 0) {
				return math.Log(b.Mean / a.Mean)
			}
			sum += math.Log(y / x)
		}
		return sum / float64(n)
	}
	return math.Log(b.Mean / a.Mean)
}

// pairedPair judges one run from its pairs. With enough pairs for the
// signed-rank test to reach level (the family's strictest), the
// verdict is the signed-rank test's and the change its Hodges–Lehmann
// estimate and interval; with fewer, the paired t-test's on the mean
// log ratio, and the pair's note says the rank test could not check it.
func pairedPair(r PairedRun, opts Options, level float64) (Pair, *candidate, error) {
	p := newPair(r.Run)
	p.Unit, p.Better = r.Unit, Better(r.Unit)
	d, a, b, dropped, err := logRatios(r)
	if err != nil {
		return p, nil, err
	}
	p.Base, p.New = pairedSide(a), pairedSide(b)
	n := len(d)
	if n < 2 {
		p.Verdict = Inconclusive
		p.Reason = fmt.Sprintf("%d complete pairs (%d dropped for a fork without a value): a test needs at least 2, since only pairs tell how much a pair's ratio varies", n, dropped)
		return p, nil, nil
	}
	mean, sd := stat.MeanStdDev(d, nil)
	se, df := sd/math.Sqrt(float64(n)), float64(n-1)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	half := tQuantile(1-opts.Alpha/2, df) * se
	p.Change = report.Float(math.Expm1(mean))
	p.ChangeCI = [2]report.Float{report.Float(math.Expm1(mean - half)), report.Float(math.Expm1(mean + half))}
	switch {
	case se > 0:
		p.P = report.Float(math.Min(1, 2*t.Survival(math.Abs(mean)/se)))
	case mean != 0:
		p.P = 0
	default:
		p.P = 1
	}
	rp, nonzero := signedRank(d)
	p.PRank = report.Float(rp)
	th := opts.Threshold
	up, down := math.Log1p(th), math.Inf(-1)
	if th < 1 {
		down = math.Log1p(-th)
	}
	samples := fmt.Sprintf("%d pairs", n)
	if dropped > 0 {
		samples = fmt.Sprintf("%d pairs (%d dropped)", n, dropped)
	}
	if signedRankMinP(nonzero) < level {
		// Enough pairs for the signed-rank test to reach the family's
		// level: it decides, with the Hodges–Lehmann interval.
		est, lo, hi, _ := hodgesLehmann(d, opts.Alpha)
		p.Change = report.Float(math.Expm1(est))
		p.ChangeCI = [2]report.Float{report.Float(math.Expm1(lo)), report.Float(math.Expm1(hi))}
		upG, _ := signedRankOneSided(d, up)
		_, downL := signedRankOneSided(d, down)
		if math.IsInf(down, -1) {
			downL = 1
		}
		pb := math.Min(1, 2*math.Min(upG, downL))
		robust := madNormal * forkstat.MedianAbsDev(d)
		margin := math.Min(math.Abs(est-up), math.Abs(est-down))
		c := &candidate{
			lo: float64(p.ChangeCI[0]), hi: float64(p.ChangeCI[1]), change: float64(p.Change), th: th,
			pParam: rp, pBeyond: pb, rankP: pb, rankFloor: 0,
			samples: samples, unit: "pairs",
			param: "the signed-rank test on the log ratios", rank: "the signed-rank test", overlap: "the pairs' ratios fall on both sides of 1",
		}
		// Pairs that would bring a t interval at the ratios' robust
		// spread within the margin: the signed-rank interval is about as
		// wide for normal ratios (95 % efficiency) and narrower for
		// heavy-tailed ones.
		c.need = func() (int, bool) { return pairsFor(robust, margin, opts.Alpha) }
		c.rankNeed = func() int { return 0 }
		return p, c, nil
	}
	c := &candidate{
		lo: float64(p.ChangeCI[0]), hi: float64(p.ChangeCI[1]), change: float64(p.Change), th: th,
		pParam: float64(p.P), pBeyond: beyondP(mean, se, df, up, down),
		rankP: rp, rankFloor: signedRankMinP(nonzero),
		samples: samples, unit: "pairs",
		param: "the paired t-test on the log ratios", rank: "the signed-rank test", overlap: "the pairs' ratios fall on both sides of 1",
	}
	// The margin is the distance from the change to the nearer bound
	// of ±th, on the log scale the interval is built on.
	margin := math.Min(math.Abs(mean-up), math.Abs(mean-down))
	c.need = func() (int, bool) { return pairsFor(sd, margin, opts.Alpha) }
	c.rankNeed = func() int {
		k, ok := forkstat.SmallestForks(func(k int) bool { return signedRankMinP(k) < opts.Alpha })
		if need, ok2 := pairsFor(sd, margin, opts.Alpha); ok && ok2 {
			k = max(k, need)
		}
		if !ok || k > forkstat.MaxForks {
			return 0
		}
		return max(k, n+1)
	}
	return p, c, nil
}

// madNormal turns a median absolute deviation into a standard deviation
// of normal values: 1/Φ⁻¹(3/4).
const madNormal = 1.4826

// pairsFor is the fewest pairs whose (1−alpha) t interval of the mean
// log ratio would be narrower than margin, at the spread sd.
func pairsFor(sd, margin, alpha float64) (int, bool) {
	if !(margin > 0) || math.IsNaN(sd) {
		return 0, false
	}
	if sd == 0 {
		return 2, true
	}
	fits := func(k int) bool {
		return tQuantile(1-alpha/2, float64(k-1))*sd/math.Sqrt(float64(k)) < margin
	}
	return searchUp(sd*sd/(margin*margin), alpha, fits)
}

// pairedSide is one build's side of a paired run: the mean of its fork
// means and their 99.9 % interval's half-width (report.Confidence), as a
// report gives a score.
func pairedSide(means []float64) Side {
	s := Side{Status: report.StatusOK, Score: report.NaN(), Error: report.NaN(), Forks: len(means), Count: len(means)}
	if len(means) == 0 {
		return s
	}
	groups := make([][]float64, len(means))
	for i, m := range means {
		groups[i] = []float64{m}
	}
	m := forkstat.Of(groups)
	s.Score, s.Error = report.Float(m.Mean), report.Float(m.HalfWidth(report.Confidence))
	return s
}

// PairedRuns makes the paired runs of a batch that ran base's and new's
// forks in alternation, each run's in the order order[key] gives (a
// executor.OrderPaired; the k-th A of it is base's fork k, the k-th B new's fork k):
// the runs both reports hold, in base's order, the new side's means
// converted to the base's unit. A run that failed or was skipped on a
// side, or whose order is missing or names more forks than a side has,
// is returned in skipped with the reason, as a Pair whose verdict says
// so; runs of one report only are in onlyBase and onlyNew.
func PairedRuns(base, new *report.Report, order map[string][]Build) (runs []PairedRun, skipped []Pair, onlyBase, onlyNew []Run) {
	inNew := map[string]*report.Run{}
	for i := range new.Runs {
		inNew[new.Runs[i].Key] = &new.Runs[i]
	}
	inBase := map[string]bool{}
	for i := range base.Runs {
		b := &base.Runs[i]
		inBase[b.Key] = true
		n, ok := inNew[b.Key]
		if !ok {
			onlyBase = append(onlyBase, runOf(b))
			continue
		}
		p, scale, why := openPair(b, n)
		if why != "" {
			p.Verdict, p.Reason = Inconclusive, why
			if strings.HasPrefix(why, "failed in ") {
				p.Verdict = Failed
			}
			skipped = append(skipped, p)
			continue
		}
		ma, mb := alignedForkMeans(b.Primary, 1), alignedForkMeans(n.Primary, scale)
		da, db := inStep(b), inStep(n)
		// values are fork k's values when it ran in a duet, to pair
		// by iteration with its partner (pairLogRatio), else nil.
		values := func(m *report.Metric, duet []bool, k int, scale float64) []float64 {
			if k >= len(m.RawData) || k >= len(duet) || !duet[k] {
				return nil
			}
			out := make([]float64, len(m.RawData[k]))
			for j, v := range m.RawData[k] {
				out[j] = float64(v) * scale
			}
			return out
		}
		r := PairedRun{Run: runOf(b), Unit: p.Unit}
		var ia, ib int
		for _, x := range order[b.Key] {
			switch {
			case x == BuildA && ia < len(ma):
				r.Forks = append(r.Forks, PairedFork{BuildA, ma[ia], values(b.Primary, da, ia, 1)})
				ia++
			case x == BuildB && ib < len(mb):
				r.Forks = append(r.Forks, PairedFork{BuildB, mb[ib], values(n.Primary, db, ib, scale)})
				ib++
			default:
				why = fmt.Sprintf("the batch's order names more forks of %s than the report holds (%d of A, %d of B)", x, len(ma), len(mb))
			}
		}
		if len(order[b.Key]) == 0 {
			why = "the batch's order of this run's forks is missing"
		}
		if why != "" {
			p.Verdict, p.Reason = Inconclusive, why
			skipped = append(skipped, p)
			continue
		}
		runs = append(runs, r)
	}
	for i := range new.Runs {
		if !inBase[new.Runs[i].Key] {
			onlyNew = append(onlyNew, runOf(&new.Runs[i]))
		}
	}
	return runs, skipped, onlyBase, onlyNew
}

// ComparePairedReports is ComparePaired over PairedRuns of base and new:
// the runs that could not be paired follow the others with their
// reason, and count in no family.
func ComparePairedReports(base, new *report.Report, order map[string][]Build, opts Options) (*Result, error) {
	runs, skipped, onlyBase, onlyNew := PairedRuns(base, new, order)
	res, err := ComparePaired(runs, opts)
	if err != nil {
		return nil, err
	}
	res.Pairs = append(res.Pairs, skipped...)
	if onlyBase != nil {
		res.OnlyBase = onlyBase
	}
	if onlyNew != nil {
		res.OnlyNew = onlyNew
	}
	return res, nil
}

// inStep says of each measured fork of r, in raw_data's order, whether
// it ran in a duet (report.Fork.Duet).
func inStep(r *report.Run) []bool {
	var out []bool
	for _, f := range r.Forks {
		if !f.Warmup {
			out = append(out, f.Duet)
		}
	}
	return out
}

// alignedForkMeans is the mean of each measured fork's valid raw values,
// scaled, in fork order; NaN for a fork without any (unlike forkMeans,
// which leaves it out), so that the k-th value is fork k's.
func alignedForkMeans(m *report.Metric, scale float64) []float64 {
	out := make([]float64, len(m.RawData))
	for i, fork := range m.RawData {
		sum, n := 0.0, 0
		for _, v := range fork {
			if v.Valid() {
				sum += float64(v) * scale
				n++
			}
		}
		out[i] = math.NaN()
		if n > 0 {
			out[i] = sum / float64(n)
		}
	}
	return out
}
