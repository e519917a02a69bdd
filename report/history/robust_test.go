package history

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
)

// night is how one simulated night measures: forks fork means, each
// the night's level times 1 + forkNoise·N(0,1), times a factor of a busy
// machine: with probability hit a fork is slowed by U(1.3, 2.5) (a CPU
// hog held its core for part of the fork's life); every fork of a busy
// night by U(1, 1 + busy) besides.
type night struct {
	forks     int
	forkNoise float64
	hit, busy float64
	drift     float64 // the night's own level: 1 + drift·N(0,1)
}

// point simulates a night at level and summarizes it as the index does.
func (n night) point(rng *rand.Rand, batch int, level float64) Point {
	level *= 1 + n.drift*rng.NormFloat64()
	means := make([]float64, n.forks)
	for i := range means {
		f := 1 + n.forkNoise*rng.NormFloat64()
		if n.busy > 0 {
			f *= 1 + n.busy*rng.Float64()
		}
		if rng.Float64() < n.hit {
			f *= 1.3 + 1.2*rng.Float64()
		}
		means[i] = level * f
	}
	p := Point{Batch: batch, Score: report.Float(stat.Mean(means, nil)), Forks: n.forks, Count: 3 * n.forks,
		Stdev: report.Float(0.005 * level), ForkStdev: report.NaN(), ForkMedian: report.NaN(), ForkMAD: report.NaN()}
	if n.forks >= 2 {
		p.ForkStdev = report.Float(stat.StdDev(means, nil))
		med := stats.Median(means)
		dev := make([]float64, len(means))
		for i, v := range means {
			dev[i] = math.Abs(v - med)
		}
		p.ForkMedian, p.ForkMAD = report.Float(med), report.Float(stats.Median(dev))
	}
	return p
}

// series simulates a series of nights at levels.
func (n night) series(rng *rand.Rand, levels ...float64) *Series {
	s := &Series{Suite: "s", Key: "b:avgt", Unit: "ns/op", Better: "lower"}
	for i, l := range levels {
		s.Points = append(s.Points, n.point(rng, i+1, l))
	}
	return s
}

// scoreOnly is s with its points' fork medians dropped: the detection
// on the nights' scores (means of forks), as before levels were medians.
func scoreOnly(s *Series) *Series {
	c := *s
	c.Points = append([]Point(nil), s.Points...)
	for i := range c.Points {
		c.Points[i].ForkMedian, c.Points[i].ForkMAD = report.NaN(), report.NaN()
	}
	return &c
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// found reports whether s has exactly one change point, a regression at
// index at.
func found(s *Series, at int) bool {
	return len(s.ChangePoints) == 1 && s.ChangePoints[0].Index == at && s.ChangePoints[0].Direction == Regression
}

// rate runs trials simulated series and counts those for which ok
// holds, on the robust levels and on the scores alone.
func rate(seed uint64, trials int, make func(rng *rand.Rand) *Series, ok func(*Series) bool) (robust, scores int) {
	rng := rand.New(rand.NewPCG(seed, 99))
	for range trials {
		s := make(rng)
		if ok(analyzed(s, Options{})) {
			robust++
		}
		if ok(analyzed(scoreOnly(s), Options{})) {
			scores++
		}
	}
	return robust, scores
}

// hog is a night on a machine beside a CPU hog, as simulated here: a
// quarter of the forks slowed 1.3–2.5×, every fork by up to 20 % more,
// the night's level 3 % apart from the next, forks 3 % apart.
func hog(forks int) night {
	return night{forks: forks, forkNoise: 0.03, hit: 0.25, busy: 0.2, drift: 0.03}
}

// TestHogStepFoundWithinTwoNights: a 2× step after 4 nights, beside a
// CPU hog, at the default 20 forks a night: on the 6th night (two after
// the step) the regression at night 5 is found in at least 90 % of 200
// simulated histories. The nights' means of forks find it far less
// often: every hit fork moves them. With 5 forks a night the medians are
// hit too often for that; then the series must not read steady: it has
// the regression, or it says it is too noisy to tell.
func TestHogStepFoundWithinTwoNights(t *testing.T) {
	step := func(forks int) func(rng *rand.Rand) *Series {
		return func(rng *rand.Rand) *Series { return hog(forks).series(rng, 1, 1, 1, 1, 2, 2) }
	}
	robust, scores := rate(1, 200, step(20), func(s *Series) bool { return found(s, 4) })
	if robust < 180 || robust <= scores {
		t.Errorf("2× after 4 nights, hog, 20 forks: found by night 6 in %d of 200 (on scores %d), want at least 180 and more than on scores", robust, scores)
	}
	never, _ := rate(2, 200, step(5), func(s *Series) bool {
		return len(s.ChangePoints) == 0 && !s.TooNoisy || len(s.ChangePoints) > 0 && s.ChangePoints[0].Direction != Regression
	})
	found5, scores5 := rate(2, 200, step(5), func(s *Series) bool { return found(s, 4) })
	if never > 0 {
		t.Errorf("2× after 4 nights, hog, 5 forks: %d of 200 read steady or an improvement, want none", never)
	}
	t.Logf("2× after 4 nights beside a hog, by night 6: 20 forks found %d/200 (scores %d); 5 forks found %d/200 (scores %d), the rest too noisy to tell",
		robust, scores, found5, scores5)
}

// TestIdleEightPercentStepTwoForks: 6 nights at 1.00 and 6 at 1.08, 2
// forks a night 2 % apart, nights 1 % apart: the regression at night 7
// is found in at least 90 % of 200 simulated histories.
func TestIdleEightPercentStepTwoForks(t *testing.T) {
	idle := night{forks: 2, forkNoise: 0.02, drift: 0.01}
	robust, _ := rate(3, 200, func(rng *rand.Rand) *Series {
		return idle.series(rng, append(repeat(1, 6), repeat(1.08, 6)...)...)
	}, func(s *Series) bool { return found(s, 6) })
	if robust < 180 {
		t.Errorf("+8 %% after 6 nights of 2 forks, idle: found in %d of 200, want at least 180", robust)
	}
	t.Logf("+8 %% after 6 nights of 2 forks, idle: found at night 7 in %d of 200", robust)
}

// TestUnchangedSeriesHasNoChangePoint: 12 unchanged nights, idle with 2
// forks and beside a hog with 5 or 20, give a change point in at most 1 %
// of 200 simulated histories each (a test at p 0.001 at every split of
// the series finds one now and then; the fixed series of TestChangePoints
// has none).
func TestUnchangedSeriesHasNoChangePoint(t *testing.T) {
	for _, c := range []struct {
		name string
		n    night
	}{{"idle, 2 forks", night{forks: 2, forkNoise: 0.02, drift: 0.01}}, {"hog, 5 forks", hog(5)}, {"hog, 20 forks", hog(20)}} {
		robust, _ := rate(4, 200, func(rng *rand.Rand) *Series { return c.n.series(rng, repeat(1, 12)...) },
			func(s *Series) bool { return len(s.ChangePoints) > 0 })
		if robust > 2 {
			t.Errorf("%s: %d of 200 unchanged series with a change point, want at most 2", c.name, robust)
		}
		t.Logf("%s: %d of 200 unchanged series with a change point", c.name, robust)
	}
}

// TestTooNoisyIsNotSteady: a series without change points knows what it
// could have told apart: steady only when a change of MinChange would
// have shown; otherwise too noisy to tell, with the smallest change it
// could tell, which is above MinChange (report/format's TestTrend says
// it in words).
func TestTooNoisyIsNotSteady(t *testing.T) {
	quiet := analyzed(levels("ns/op", 0.005, 8, 100), Options{})
	if quiet.TooNoisy || !(float64(quiet.Detectable) < DefaultMinChange) {
		t.Errorf("0.5 %% noise: too noisy %v, detectable %v; want steady with what would show", quiet.TooNoisy, quiet.Detectable)
	}
	noisy := analyzed(levels("ns/op", 0.3, 8, 100), Options{})
	d := float64(noisy.Detectable)
	if len(noisy.ChangePoints) != 0 || !noisy.TooNoisy || !(d > DefaultMinChange) {
		t.Errorf("30 %% noise: change points %v, too noisy %v, detectable %v; want too noisy to tell", where(noisy), noisy.TooNoisy, d)
	}
	if few := analyzed(levels("ns/op", 0.01, 2, 100), Options{}); few.Detectable.Valid() {
		t.Errorf("2 points: detectable %v; want too few", few.Detectable)
	}
	if step := analyzed(levels("ns/op", 0.01, 6, 100, 108), Options{}); step.Detectable.Valid() || step.TooNoisy {
		t.Errorf("a series with a change point: detectable %v, too noisy %v; want neither", step.Detectable, step.TooNoisy)
	}
}
