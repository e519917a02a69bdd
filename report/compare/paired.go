package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
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
// the log ratio of the pair's fork means (of its iterations' ratios when
// the two ran as a duet): a multiplicative effect of the machine (a
// slower core, a busy neighbour) on both forks of a pair cancels in it,
// and the change is a ratio whichever way the unit runs. The pairs are
// the experimental unit, as forks are of one build. The change is
// exp(mean dᵢ) − 1 with the confidence sequence of the mean
// (stats.SequenceHalfWidth), which stays valid however often ab looks and stops:
// ab adds pairs to a run until its sequence decides (sequenceVerdict:
// within ±Threshold unchanged, wholly above or below 0 a regression or
// an improvement) or its time runs out. The runs of a batch share Alpha
// by Bonferroni. A bootstrap was not taken: random, and with 10–30
// pairs its interval is narrower than the data warrant; the signed-rank
// test that judged fixed numbers of pairs before has no sequential form
// as simple, and the duets' ratios, whose two forks share the
// machine's moments, are not the heavy-tailed samples it was there for
// (docs/statistics.md has the rates measured both ways).

// PairedTest names the tests of a paired comparison in Result.Test.
const PairedTest = "confidence-sequence-mean-log-ratio"

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
// pairs, by the confidence sequence of the mean log ratio (stats.SequenceHalfWidth),
// each run at Alpha/m with m the runs that have two pairs or more
// (Bonferroni: the sequences of the runs are looked at together, and
// stopped one by one, which Holm's step-down over fixed p-values does
// not cover). It returns an error when a pair's two forks are of one
// build (the forks are not in a schedule's order); NaN means and failed
// forks are not errors (their pairs are dropped, and Pair.Reason says
// so when fewer than two are left).
func ComparePaired(runs []PairedRun, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	res := &Result{BaseName: "A", NewName: "B", Threshold: opts.Threshold, Alpha: opts.Alpha,
		Test: PairedTest, Correction: Bonferroni, Pairs: []Pair{}, OnlyBase: []Run{}, OnlyNew: []Run{}, Notes: []string{}}
	if opts.Correction == NoCorrection {
		res.Correction = NoCorrection
	}
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
	res.Family = m
	level := opts.Alpha
	if res.Correction == Bonferroni && m > 0 {
		level = opts.Alpha / float64(m)
	}
	for _, r := range runs {
		p := pairedPair(r, opts, level, m)
		res.Pairs = append(res.Pairs, p)
	}
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

// pairedPair judges one run from its pairs at level (Alpha, or its
// family's share of it), m the family's size: its change is exp of the
// Huber centre of the log ratios − 1, its interval the confidence
// sequence's, its P the anytime-valid p-value of no change (the largest
// level at which the sequence holds 0) and PAdjusted that times m under
// Bonferroni. A verdict other than inconclusive settles the run: ab
// adds no pairs to it.
func pairedPair(r PairedRun, opts Options, level float64, m int) Pair {
	p := newPair(r.Run)
	p.Unit, p.Better = r.Unit, Better(r.Unit)
	d, a, b, dropped, _ := logRatios(r)
	p.Base, p.New = pairedSide(a), pairedSide(b)
	n := len(d)
	if n < 2 {
		p.Verdict = Inconclusive
		p.Reason = fmt.Sprintf("%d complete pairs (%d dropped for a fork without a value): a test needs at least 2, since only pairs tell how much a pair's ratio varies", n, dropped)
		return p
	}
	if n < SequenceMinPairs {
		p.Verdict, p.ForksNeeded = Inconclusive, SequenceMinPairs
		p.Reason = fmt.Sprintf("%d complete pairs: a verdict needs at least %d, as the interval's spread is estimated from the pairs themselves", n, SequenceMinPairs)
		if dropped > 0 {
			p.Reason += fmt.Sprintf(" (%d dropped for a fork without a value)", dropped)
		}
		return p
	}
	mean, sd := stats.Huber(d)
	hw := stats.SequenceHalfWidth(sd, n, level)
	p.Change = report.Float(math.Expm1(mean))
	p.ChangeCI = [2]report.Float{report.Float(math.Expm1(mean - hw)), report.Float(math.Expm1(mean + hw))}
	p.P = report.Float(stats.SequenceP(mean, sd, n))
	p.PAdjusted = p.P
	if m > 1 && level < opts.Alpha {
		p.PAdjusted = report.Float(math.Min(1, float64(m)*float64(p.P)))
	}
	lo, hi := float64(p.ChangeCI[0]), float64(p.ChangeCI[1])
	v, decided := sequenceVerdict(lo, hi, opts.Threshold, p.Better)
	p.Verdict = v
	if decided {
		return p
	}
	margin := sequenceMargin(mean, opts.Threshold)
	k, ok := stats.SequencePairs(sd, margin, level, adviceForks)
	if ok {
		p.ForksNeeded = k
	}
	p.Reason = sequenceReason(lo, hi, opts.Threshold, level)
	if dropped > 0 {
		p.Reason += fmt.Sprintf(" (%d pairs, %d dropped for a fork without a value)", n, dropped)
	}
	p.Reason += forksAdvice(k, ok, "pairs", "decide it")
	return p
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
	m := stats.Of(groups)
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
	res.Notes = append(res.Notes, complexityNotes(base, new)...)
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
