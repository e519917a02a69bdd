// Package historytest makes results directories for the tests of the
// nightly history: nights of reports synthesized from a real run's
// report, with every run's score set by the test.
package historytest

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
)

// Nights writes reports that are a real report's copies, its runs
// widened to a number of its own and their scores scaled per night.
type Nights struct {
	// Spread, when not 0, is the relative standard deviation each night's
	// iteration scores are given (0.01: 1 % of the score), in place of
	// the real report's: a report measured on a busy machine has a
	// spread no change of a few percent could show through.
	Spread float64

	rep   *report.Report
	base  []report.Metric // each run's primary metric as the real report has it
	forks [][]report.Fork // each run's forks as the real report has them
}

// ReadReport reads a JSON report.
func ReadReport(path string) (*report.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return report.Read(f)
}

// New returns nights of real with runs runs each: its successful runs,
// then copies of them told apart by a param "copy" (a run key each).
func New(real *report.Report, runs int) (*Nights, error) {
	var ok []report.Run
	for _, r := range real.Runs {
		if !r.Failed() && r.Primary != nil {
			ok = append(ok, r)
		}
	}
	if len(ok) == 0 {
		return nil, fmt.Errorf("historytest: the report has no successful run to copy")
	}
	rep := *real
	rep.Runs = nil
	n := &Nights{rep: &rep}
	for i := 0; i < runs; i++ {
		r := ok[i%len(ok)]
		if i >= len(ok) {
			c := strconv.Itoa(i / len(ok))
			params := map[string]string{"copy": c}
			for k, v := range r.Params {
				params[k] = v
			}
			r.Params = params
			r.Key = r.Benchmark + "/copy=" + c + ":" + r.Mode.String()
		}
		m := *r.Primary
		n.base = append(n.base, m)
		n.forks = append(n.forks, r.Forks)
		r.Primary = &m
		rep.Runs = append(rep.Runs, r)
	}
	return n, nil
}

// Keys returns the run keys of a night.
func (n *Nights) Keys() []string {
	keys := make([]string, len(n.rep.Runs))
	for i, r := range n.rep.Runs {
		keys[i] = r.Key
	}
	return keys
}

// Write writes a night's report into dir under the name run
// --results-dir gives it, started at start and labelled label, with the
// score of run j (its error, spread, extremes and raw data alike)
// multiplied by factor(j), and its spread set by Spread (its fork-level
// model alike: fork means, variance components). It returns the
// report's path.
func (n *Nights) Write(dir string, start time.Time, label string, factor func(run int) float64) (string, error) {
	path := filepath.Join(dir, start.UTC().Format("20060102T150405Z")+".json")
	return path, n.WriteFile(path, start, label, factor)
}

// WriteFile is Write to a path of the caller's choosing.
func (n *Nights) WriteFile(path string, start time.Time, label string, factor func(run int) float64) error {
	n.rep.Env.Start, n.rep.Env.End, n.rep.Label = start, start.Add(time.Minute), label
	for j := range n.rep.Runs {
		f := factor(j)
		b := &n.base[j]
		// Each value v becomes score·f + (v − score)·f·k: the level scaled
		// by f, the spread around it by k as well.
		k := 1.0
		if n.Spread > 0 && b.Stdev.Valid() && b.Stdev > 0 {
			k = n.Spread * float64(b.Score) / float64(b.Stdev)
		}
		at := func(v report.Float) report.Float {
			return report.Float(float64(b.Score)*f + (float64(v)-float64(b.Score))*f*k)
		}
		n.rep.Runs[j].Forks = scaledForks(&n.rep.Runs[j], n.forks[j], at)
		m := n.rep.Runs[j].Primary
		m.Score, m.Min, m.Max = at(b.Score), at(b.Min), at(b.Max)
		m.ScoreError, m.Stdev = b.ScoreError*report.Float(f*k), b.Stdev*report.Float(f*k)
		m.ScoreConfidence = [2]report.Float{m.Score - m.ScoreError, m.Score + m.ScoreError}
		m.RawData = make([][]report.Float, len(b.RawData))
		raw := make([][]float64, len(b.RawData))
		for i, fork := range b.RawData {
			m.RawData[i] = make([]report.Float, len(fork))
			for l, v := range fork {
				m.RawData[i][l] = at(v)
				raw[i] = append(raw[i], float64(at(v)))
			}
		}
		if bv := b.Variance; bv != nil {
			// The fork-level model of the new values: an affine map of the
			// old ones, so the components scale by f·k; the forks a target
			// would take are estimated again.
			v := *bv
			v.ForkMeans = make([]report.Float, len(bv.ForkMeans))
			for i, mean := range bv.ForkMeans {
				v.ForkMeans[i] = at(mean)
			}
			v.WithinForkStdev, v.BetweenForkStdev = bv.WithinForkStdev*report.Float(f*k), bv.BetweenForkStdev*report.Float(f*k)
			v.ForksNeeded = nil
			if need, ok := stats.Of(raw).ForksFor(float64(v.TargetError)*math.Abs(float64(m.Score)), report.Confidence); ok {
				v.ForksNeeded = &need
			}
			m.Variance = &v
		}
	}
	data, err := json.Marshal(n.rep)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// scaledForks are forks with their measurement iterations' scores mapped
// by at and their times made to match (report.Read checks a score
// against its operations and time); nil, a run without forks, when a
// mapped score is not positive and no time could make it.
func scaledForks(r *report.Run, forks []report.Fork, at func(report.Float) report.Float) []report.Fork {
	unit := report.UnitNs(r.Settings.TimeUnit)
	out := make([]report.Fork, len(forks))
	for i, f := range forks {
		f.Iterations = append([]report.Iteration(nil), f.Iterations...)
		for k := range f.Iterations {
			it := &f.Iterations[k]
			if f.Warmup || it.Phase != "measurement" || it.NoTime {
				continue
			}
			s := at(it.Score)
			if !(s > 0) {
				return nil
			}
			it.Score = s
			switch {
			case r.Mode.Samples():
			case r.Mode.IsRate():
				it.TimeNs = report.Float(float64(it.Ops) * unit / float64(s))
			default:
				it.TimeNs = report.Float(float64(s) * float64(it.Ops) * unit)
			}
		}
		out[i] = f
	}
	return out
}

// Score returns the score of run j as the real report has it.
func (n *Nights) Score(j int) float64 { return float64(n.base[j].Score) }

// FromFile returns nights of the real report at path with runs runs,
// their iterations spread by spread (see Nights.Spread).
func FromFile(path string, runs int, spread float64) (*Nights, error) {
	real, err := ReadReport(path)
	if err != nil {
		return nil, err
	}
	n, err := New(real, runs)
	if err != nil {
		return nil, err
	}
	n.Spread = spread
	return n, nil
}

// Planted writes nights reports into dir, a day apart from start,
// labelled night-1, night-2, …: every run at its real score times 1 %
// noise of a fixed seed, and run 0 also times factor from night change
// on (0: never) — a planted regression, or none.
func (n *Nights) Planted(dir string, start time.Time, nights, change int, factor float64) error {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range nights {
		_, err := n.Write(dir, start.Add(time.Duration(i)*24*time.Hour), "night-"+strconv.Itoa(i+1), func(j int) float64 {
			f := 1 + 0.01*rng.NormFloat64()
			if j == 0 && change > 0 && i+1 >= change {
				f *= factor
			}
			return f
		})
		if err != nil {
			return err
		}
	}
	return nil
}
