package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/benchspec/benchspec/report/stats"
)

// noiseModel makes the forks of a schedule: B factor times A.
type noiseModel struct {
	name  string
	forks func(rng *rand.Rand, order []Build, factor float64) []PairedFork
}

var noiseModels = []noiseModel{
	{"normal 1.2 %", func(rng *rand.Rand, order []Build, factor float64) []PairedFork {
		return machine(rng, order, factor, 0.012, flat)
	}},
	{"beside a hog", busyMachine},
	{"t with 3 df", func(rng *rand.Rand, order []Build, factor float64) []PairedFork {
		forks := machine(rng, order, factor, 0, flat)
		for i := range forks {
			// t₃ = N / √(χ²₃/3), scaled to about 1 % a fork.
			chi := 0.0
			for range 3 {
				z := rng.NormFloat64()
				chi += z * z
			}
			forks[i].Mean *= math.Exp(0.01 * rng.NormFloat64() / math.Sqrt(chi/3))
		}
		return forks
	}},
}

// sequential simulates ab's batch: runs runs, first pairs each, then
// block more to every run its sequence has not decided, looking after
// each block, up to bound pairs; it returns each run's verdict and
// pairs. The first run is B factor times A, the others unchanged.
func sequential(rng *rand.Rand, model noiseModel, factor float64, runs, first, block, bound int, opts Options) (v []Verdict, pairs []int) {
	forks := make([][]PairedFork, runs)
	open := make([]bool, runs)
	v, pairs = make([]Verdict, runs), make([]int, runs)
	for r := range open {
		open[r] = true
	}
	next := first
	for {
		any := false
		for r := range runs {
			if !open[r] {
				continue
			}
			f := factor
			if r > 0 {
				f = 1
			}
			forks[r] = append(forks[r], model.forks(rng, schedule(next, rng.Uint64()), f)...)
			any = true
		}
		if !any {
			return v, pairs
		}
		var pr []PairedRun
		for r := range runs {
			pr = append(pr, pairedRun(string(rune('a'+r)), forks[r]))
		}
		res, err := ComparePaired(pr, opts)
		if err != nil {
			panic(err)
		}
		for r, p := range res.Pairs {
			v[r], pairs[r] = p.Verdict, p.Base.Forks
			if p.Verdict != Inconclusive || pairs[r]+block > bound {
				open[r] = false
			}
		}
		next = block
	}
}

// TestSequentialAAKeepsAlpha: A/A batches of two runs, looked at after
// 10 pairs and every 10 more up to 200 (20 looks), at threshold 0 so
// that nothing but a change stops a run: the share of batches with any
// regression or improvement stays at alpha (0.05) under normal,
// hog-hit and heavy-tailed ratios. A fixed-n 95 % interval re-checked
// at the same looks raises one several times as often: why ab's
// interval is a sequence.
func TestSequentialAAKeepsAlpha(t *testing.T) {
	if testing.Short() {
		t.Skip("900 simulated sequential batches")
	}
	const batches = 300
	for i, model := range noiseModels {
		rng := rand.New(rand.NewPCG(21, uint64(i)))
		alarms, naive := 0, 0
		for range batches {
			v, _ := sequential(rng, model, 1, 2, 10, 10, 200, Options{})
			if v[0] == Regression || v[0] == Improvement || v[1] == Regression || v[1] == Improvement {
				alarms++
			}
			if naiveLooks(rng, model, 10, 10, 200) {
				naive++
			}
		}
		// alpha 0.05 over 300 batches: binomial sd 1.3 %; allow 3 sd.
		if alarms > 27 {
			t.Errorf("%s: %d of %d A/A batches with a verdict, want at most about %d (alpha)", model.name, alarms, batches, batches/20)
		}
		if naive < 2*max(alarms, 15) {
			t.Errorf("%s: a fixed-n interval re-checked at every look alarmed in %d of %d, the sequence in %d; want the fixed-n far more often", model.name, naive, batches, alarms)
		}
		t.Logf("%s: A/A, 2 runs, 20 looks up to 200 pairs: %d of %d batches with a verdict (fixed-n t interval re-checked: %d)", model.name, alarms, batches, naive)
	}
}

// naiveLooks reports whether a 95 % t interval of the mean log ratio,
// re-checked after every block, ever leaves 0 out in an A/A run.
func naiveLooks(rng *rand.Rand, model noiseModel, first, block, bound int) bool {
	var forks []PairedFork
	for n := first; n <= bound; n += block {
		size := block
		if n == first {
			size = first
		}
		forks = append(forks, model.forks(rng, schedule(size, rng.Uint64()), 1)...)
		d, _, _, _, _ := logRatios(pairedRun("x", forks))
		m, sd := meanSD(d)
		if math.Abs(m) > distuvT(len(d)-1)*sd/math.Sqrt(float64(len(d))) {
			return true
		}
	}
	return false
}

// TestSequentialFindsPlanted: beside an unchanged twin, at threshold
// 1 % and ab's alpha, a planted +2 % and +1 % are regressions in at
// least 90 % of batches by 400 pairs, unchanged or an improvement and
// the twin a change each at most about alpha of the time; +2 % decides
// in a few dozen pairs on duet-like ratios.
func TestSequentialFindsPlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("400 simulated sequential batches")
	}
	rng := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct {
		factor float64
		model  noiseModel
	}{{1.02, noiseModels[0]}, {1.01, noiseModels[0]}, {1.02, noiseModels[1]}, {1.05, noiseModels[2]}} {
		found, wrong, twin, most := 0, 0, 0, 0
		var used []float64
		for range 100 {
			v, pairs := sequential(rng, c.model, c.factor, 2, 10, 10, 400, Options{Threshold: 0.01, Alpha: SequenceAlpha})
			switch v[0] {
			case Regression:
				found++
			case Unchanged, Improvement:
				wrong++ // at most alpha/2 of the time, a change of th or more
			}
			if v[1] == Regression || v[1] == Improvement {
				twin++
			}
			used = append(used, float64(pairs[0]))
			most = max(most, pairs[0])
		}
		if found < 90 || wrong > 2 || twin > 2 {
			t.Errorf("+%.0f %% (%s): %d of 100 regressions, %d unchanged or improvements, the twin %d times a change; want at least 90, and at most 2 of each (alpha %g)", 100*(c.factor-1), c.model.name, found, wrong, twin, SequenceAlpha)
		}
		t.Logf("+%.0f %% (%s), threshold 1 %%: %d of 100 regressions; pairs taken: median %.0f, most %d", 100*(c.factor-1), c.model.name, found, stats.Median(used), most)
	}
}
