package compare

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// nullReports returns two reports of runs benchmarks measured alike,
// forks forks a side, each fork's mean 1 % apart from the next at
// random; factor maps a run index to a factor on the new side.
func nullReports(rng *rand.Rand, runs, forks int, factor map[int]float64) (*report.Report, *report.Report) {
	side := func(new bool) *report.Report {
		r := &report.Report{}
		for i := range runs {
			f := 1.0
			if new {
				f = cmpOr(factor[i], 1)
			}
			m := &report.Metric{ScoreUnit: "ns/op", Count: 3 * forks}
			sum := 0.0
			for range forks {
				mean := 100 * f * (1 + 0.01*rng.NormFloat64())
				fork := []report.Float{}
				for range 3 {
					v := mean * (1 + 0.002*rng.NormFloat64())
					fork = append(fork, report.Float(v))
					sum += v
				}
				m.RawData = append(m.RawData, fork)
			}
			m.Score = report.Float(sum / float64(3*forks))
			m.ScoreError = 1
			key := fmt.Sprintf("b%02d#avgt", i)
			r.Runs = append(r.Runs, report.Run{Key: key, Benchmark: key[:3], Mode: spec.ModeAverageTime, Status: report.StatusOK,
				Settings: spec.Settings{TimeUnit: "ns"}, Primary: m})
		}
		return r
	}
	return side(false), side(true)
}

func cmpOr(x, y float64) float64 {
	if x == 0 {
		return y
	}
	return x
}

// TestCompareFamilyOf50NullRuns: 50 benchmarks that did not change, 10
// forks a side, threshold 0 (significance alone decides). Judged each at
// alpha 0.05, a comparison raises at least one false verdict most of the
// time; with Holm's correction over the 50, at most about alpha of the
// comparisons do. A real +5 % among them is still found.
func TestCompareFamilyOf50NullRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("300 simulated comparisons")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	const trials = 300
	alarms := map[string]int{}
	found := 0
	for range trials {
		base, next := nullReports(rng, 50, 10, nil)
		for _, c := range []string{Holm, NoCorrection} {
			res := Compare(base, next, Options{Correction: c})
			if res.Count(Regression)+res.Count(Improvement) > 0 {
				alarms[c]++
			}
			if res.Family != 50 || res.Correction != c {
				t.Fatalf("family %d %s, want 50 %s", res.Family, res.Correction, c)
			}
			for _, p := range res.Pairs {
				if !p.RankTakesPart {
					t.Fatalf("10 forks a side, family of 50: the rank test takes no part (its floor %.2g)", stats.RankMinP(10, 10))
				}
			}
		}
		base, next = nullReports(rng, 50, 10, map[int]float64{7: 1.05})
		if res := Compare(base, next, Options{}); res.Pairs[7].Verdict == Regression && res.Count(Regression) == 1 {
			found++
		}
	}
	// binomial sd of alpha over 300 comparisons: 1.3 %; allow 3 sd
	if alarms[Holm] > 27 {
		t.Errorf("Holm: %d of %d comparisons of 50 unchanged runs with a verdict, want about alpha (15)", alarms[Holm], trials)
	}
	if alarms[NoCorrection] < trials/2 {
		t.Errorf("no correction: %d of %d comparisons with a verdict, want most (the per-run alpha over 50 runs)", alarms[NoCorrection], trials)
	}
	if found < trials*9/10 {
		t.Errorf("+5 %% in one of 50 runs, 10 forks a side, fork means 1 %% apart: found alone in %d of %d comparisons, want 90 %%", found, trials)
	}
	t.Logf("50 unchanged runs × 10 forks a side, %d comparisons: with a verdict under Holm %d, uncorrected %d; +5 %% in one of them found alone %d times",
		trials, alarms[Holm], alarms[NoCorrection], found)
}

// TestCorrectionInOutput: the text says which correction over how many
// runs, and the JSON carries them.
func TestCorrectionInOutput(t *testing.T) {
	base, next := nullReports(rand.New(rand.NewPCG(1, 1)), 4, 10, nil)
	for _, c := range []struct {
		correction, want string
	}{{Holm, "The 4 tested runs are one family: Holm's correction keeps the chance of any false regression or improvement among them at 0.05"},
		{NoCorrection, "No correction for the 4 tested runs: each is judged at 0.05 on its own"}} {
		res := Compare(base, next, Options{Correction: c.correction})
		var text, js strings.Builder
		if err := Write(&text, res, "text"); err != nil {
			t.Fatal(err)
		}
		if err := Write(&js, res, "json"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), c.want) || !strings.Contains(js.String(), `"correction": "`+c.correction+`"`) ||
			!strings.Contains(js.String(), `"family": 4`) {
			t.Errorf("%s: text or JSON does not name the correction and family:\n%s\n%s", c.correction, text.String(), js.String())
		}
	}
}
