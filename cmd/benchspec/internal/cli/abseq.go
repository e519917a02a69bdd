package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/runlog"
	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/host"
)

// abLimits bound a sequential ab batch.
type abLimits struct {
	maxTime  time.Duration // the batch's time, from its first fork
	maxPairs int           // the most pairs a run takes
}

// abSecondsPerRun is the default --max-time per run: what go test's own
// practice for two builds takes per benchmark — each build's test
// binary run 10 times at -benchtime 500ms, alternated, then benchstat —
// 10 × 2 × 500 ms and the calibration runs before each.
const abSecondsPerRun = 12

// minBlock is the fewest pairs ab adds to an open run at a look (two
// ABBA blocks); a run that cannot have them within the budget stops.
const minBlock = 4

// explainPairs is the fewest pairs ab --explain gives a run it judged
// a change: a change of 10 % decides in 10 pairs, whose profiles (250 Hz,
// 60 ms a fork) hold ~150 samples a side, ~15 of them in a function that
// does the 10 %, at times too few to tell from noise (report/explain);
// 12 pairs give ~180 and ~18 (measured: docs/statistics.md).
const explainPairs = 12

// abBatch is a sequential ab batch as it grows: the paired plan, every
// fork so far (renumbered as one batch's), the order of each run's
// forks for compare.PairedRuns, and why each run stopped.
type abBatch struct {
	p      *plan.Plan // A's runs, then B's (pairedPlan); Forks grows with the pairs run
	forks  []protocol.ForkResult
	done   []int // forks run so far, by run of p
	pairs  []int // of them measured ones: the pairs so far, by run of p
	orders map[string][]compare.Build
	stops  map[string]string // row key → compare.Stop*
	open   int               // rows still open after the last look
	order  executor.Order    // the first round's, as the reports record it
	duet   bool              // later rounds run duets; false once a round's duets starved
	rounds int
	env    report.Env
	wall   time.Duration // from the first round's start to the last look
	// profDir, when set (--explain), is where the forks write their CPU
	// profiles: a directory a round and side, as fork numbers restart
	// each round and both sides' runs share their keys.
	profDir string
}

// runSequential runs p in rounds: every run's planned pairs, then, after
// each look at all pairs so far, more pairs for each run whose verdict
// is still open, sized from the pairs its interval still needs (at
// least minBlock, at most as many again as it has), until each run is
// decided, reaches lim.maxPairs, or the next round would not fit in
// what is left of lim.maxTime (the rounds' pairs are scaled down to fit
// first). Decided runs get no more pairs, so the time goes to the rest.
// The confidence sequences (compare.ComparePaired) stay valid however
// often it looks.
func runSequential(ctx context.Context, e *Env, p *plan.Plan, order executor.Order, lim abLimits, opts compare.Options, quiet bool, profDir string) (*abBatch, *compare.Result, error) {
	n := len(p.Runs) / 2
	b := &abBatch{p: clonePlan(p), done: make([]int, len(p.Runs)), pairs: make([]int, len(p.Runs)), orders: map[string][]compare.Build{},
		stops: map[string]string{}, order: order, duet: order.Kind == executor.OrderDuet, env: host.CollectEnv(), profDir: profDir}
	blocks := make([]int, n)
	for i := range n {
		blocks[i] = min(even(p.Runs[i].Settings.Forks), lim.maxPairs)
	}
	start := time.Now()
	var res *compare.Result
	for {
		open := 0
		for _, k := range blocks {
			if k > 0 {
				open++
			}
		}
		b.wall = time.Since(start)
		if open == 0 || ctx.Err() != nil {
			return b, res, nil
		}
		roundStart := time.Now()
		ro := order
		if b.rounds > 0 {
			ro.Seed = rand.Uint64()
		}
		if !b.duet {
			ro.Kind = executor.OrderPaired
		}
		xerr := b.round(ctx, e, blocks, ro, quiet)
		b.rounds++
		var err error
		res, err = b.judge(opts)
		b.wall = time.Since(start)
		if err != nil || xerr != nil || ctx.Err() != nil {
			return b, res, errors.Join(err, xerr)
		}
		pairs := 0
		for _, k := range blocks {
			pairs += k
		}
		perPair := time.Since(roundStart) / time.Duration(max(pairs, 1))
		blocks = b.next(res, lim, perPair, lim.maxTime-time.Since(start))
		if !quiet {
			b.announce(e.Stderr, res, blocks, time.Since(start), lim.maxTime)
		}
	}
}

// even rounds k up to a whole number of ABBA blocks' pairs (2).
func even(k int) int { return k + k%2 }

// clonePlan copies p's runs, so that a batch can grow their forks.
func clonePlan(p *plan.Plan) *plan.Plan {
	c := *p
	c.Runs = append([]plan.Run(nil), p.Runs...)
	return &c
}

// round runs blocks[i] more pairs of each run i of A (and its B), as a
// batch of their own in order ro, and adds their forks to b renumbered
// after the forks each run had.
func (b *abBatch) round(ctx context.Context, e *Env, blocks []int, ro executor.Order, quiet bool) error {
	n := len(b.p.Runs) / 2
	rp := &plan.Plan{Suite: b.p.Suite, Specs: b.p.Specs}
	var from []int // rp's run → b.p's
	for half := range 2 {
		for i, k := range blocks {
			if k == 0 {
				continue
			}
			r := b.p.Runs[i+half*n]
			r.Settings.Forks = k
			if b.done[i+half*n] > 0 {
				r.Settings.WarmupForks = 0 // the run's warmup forks ran in its first round
			}
			if b.profDir != "" {
				r.Settings.Profilers = append(slices.DeleteFunc(slices.Clone(r.Settings.Profilers), func(p string) bool { return p == "cpu" }), "cpu")
				r.ProfileDir = filepath.Join(b.profDir, fmt.Sprintf("round%d-%s", b.rounds+1, [2]string{"base", "new"}[half]))
				if err := os.MkdirAll(r.ProfileDir, 0o755); err != nil {
					return err
				}
			}
			r.Index = len(rp.Runs)
			rp.Runs = append(rp.Runs, r)
			rp.Estimate = plan.AddEstimates(rp.Estimate, r.Estimate)
			from = append(from, i+half*n)
		}
	}
	if !quiet && b.rounds == 0 {
		announceBatch(e.Stderr, rp, ro)
	}
	obs, finish := runlog.Display(e.Stderr, rp, nil, quiet, false)
	forks, xerr := executor.Execute(ctx, rp, executor.Options{
		Observer: obs,
		Order:    ro,
		Guard:    true,
		Warn:     func(msg string) { e.Errorf("%s", msg) },
	})
	finish()
	ran := make([]int, len(rp.Runs))
	for _, f := range forks {
		ran[f.Run]++
		if !f.Warmup {
			b.pairs[from[f.Run]]++
		}
		orig := from[f.Run]
		f.Run, f.Fork = orig, f.Fork+b.done[orig]
		b.forks = append(b.forks, f)
	}
	for j, orig := range from {
		b.done[orig] += ran[j]
		if ran[j] > 0 {
			b.p.Runs[orig].Settings.Forks = b.pairs[orig]
		}
	}
	for key, seq := range pairedOrder(rp, ro) {
		b.orders[key] = append(b.orders[key], seq...)
	}
	if ro.Kind == executor.OrderDuet && starved(rp, forks) {
		b.duet = false
	}
	return xerr
}

// starved reports whether a duet round's pairs turned to one fork after
// the other (the executor does after three starved duets in a row): the
// later rounds then run so from their start.
func starved(rp *plan.Plan, forks []protocol.ForkResult) bool {
	for _, f := range forks {
		if !f.Warmup && !f.Failed() && !f.Duet && executor.Duetable(&rp.Runs[f.Run]) {
			return true
		}
	}
	return false
}

// build is both builds' reports of every fork so far.
func (b *abBatch) build() (base, next *report.Report) {
	pa, pb, fa, fb := splitPaired(b.p, b.forks)
	env := b.env
	env.End = time.Now()
	return report.Build(pa, fa, env), report.Build(pb, fb, env)
}

// reports are the reports ab writes: build's, with their sources,
// builds and order.
func (b *abBatch) reports(ctx context.Context) (base, next *report.Report) {
	base, next = b.build()
	pa, pb, _, _ := splitPaired(b.p, nil)
	for _, s := range []struct {
		r *report.Report
		p *plan.Plan
	}{{base, pa}, {next, pb}} {
		s.r.Sources, s.r.Builds = sources(context.WithoutCancel(ctx), s.p, ""), buildInfos(s.p)
		s.r.Order = reportOrder(b.order)
	}
	return base, next
}

// judge compares every run's pairs so far.
func (b *abBatch) judge(opts compare.Options) (*compare.Result, error) {
	base, next := b.build()
	return compare.ComparePairedReports(base, next, b.orders, opts)
}

// next sizes the following round: per run of A, the pairs it gets (0
// for a run that stopped, whose reason goes to b.stops), given the
// time a pair took in the last round and the time left. A group's run
// is its report's rows (rowKeys), each judged and stopped on its own:
// the run gets the pairs its most demanding open row asks for.
func (b *abBatch) next(res *compare.Result, lim abLimits, perPair, left time.Duration) []int {
	n := len(b.p.Runs) / 2
	index := map[string]int{}
	for i := range n {
		for _, k := range rowKeys(&b.p.Runs[i]) {
			index[k] = i
		}
	}
	blocks := make([]int, n)
	open := make([][]string, n) // the rows that ask run i for pairs
	for _, pr := range res.Pairs {
		i, ok := index[pr.Key]
		if !ok {
			continue
		}
		if s := b.stops[pr.Key]; s != "" {
			// A group's row that decided still gets pairs while the
			// group's other rows are open; the sequence is valid at
			// every look, so one that no longer decides is open again.
			if s != compare.StopDecided || pr.Verdict != compare.Inconclusive {
				continue
			}
			delete(b.stops, pr.Key)
		}
		have := b.pairs[i]
		switch {
		case pr.Verdict == compare.Failed || pr.Reason != "" && pr.Base.Forks < 2:
			continue // failed, or no pairs to judge: more would not help
		case (pr.Verdict == compare.Regression || pr.Verdict == compare.Improvement) && b.profDir != "" && have < explainPairs:
			// Decided, but too few profiles to say where: more pairs
			// (the confidence sequence stays valid, so may the verdict).
			blocks[i] = max(blocks[i], even(min(explainPairs, lim.maxPairs)-have))
			open[i] = append(open[i], pr.Key)
			continue
		case pr.Verdict != compare.Inconclusive:
			b.stops[pr.Key] = compare.StopDecided
			continue
		case have >= lim.maxPairs:
			b.stops[pr.Key] = compare.StopBound
			continue
		}
		k := max(pr.ForksNeeded-have, minBlock)
		if pr.ForksNeeded == 0 { // beyond what advice counts: as many again
			k = have
		}
		blocks[i] = max(blocks[i], even(min(k, max(have, minBlock), lim.maxPairs-have)))
		open[i] = append(open[i], pr.Key)
	}
	want := 0
	for _, k := range blocks {
		want += k
	}
	defer func() {
		b.open = 0
		for i, k := range blocks {
			if k > 0 {
				b.open += len(open[i])
			}
		}
	}()
	if want == 0 {
		return blocks
	}
	// Scale the round down to the time left; a run that cannot have
	// minBlock pairs in it stops at the budget.
	if cost := perPair * time.Duration(want); cost > left {
		scale := float64(left) / float64(cost)
		for i, k := range blocks {
			if k == 0 {
				continue
			}
			blocks[i] = even(int(float64(k) * scale))
			if blocks[i] < minBlock || time.Duration(minBlock)*perPair > left {
				blocks[i] = 0
				for _, k := range open[i] {
					b.stops[k] = compare.StopBudget
				}
			}
		}
	}
	return blocks
}

// announce says, after a look, where each run stands and what the next
// round runs.
// Runs are the report's rows, a group's members' included (rowKeys).
func (b *abBatch) announce(w io.Writer, res *compare.Result, blocks []int, elapsed, budget time.Duration) {
	open, pairs := b.open, 0
	for _, k := range blocks {
		pairs += k
	}
	decided := 0
	for _, s := range b.stops {
		if s == compare.StopDecided {
			decided++
		}
	}
	if open == 0 {
		fmt.Fprintf(w, "# Look %d at %s: %d of %d runs decided; done\n", b.rounds, elapsed.Round(100*time.Millisecond), decided, len(res.Pairs))
		return
	}
	fmt.Fprintf(w, "# Look %d at %s of %s: %d of %d runs decided; %d more pairs for %d open\n",
		b.rounds, elapsed.Round(100*time.Millisecond), budget, decided, len(res.Pairs), pairs, open)
}
