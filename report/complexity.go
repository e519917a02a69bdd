package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// Complexity is one complexity fit: how the time per op of a benchmark,
// in one mode and at one value of its other params, grows with n, the
// param its entry sweeps (spec.ComplexityParam). Every class of
// stats.Classes is fitted to the scores by least squares weighted by
// their errors; the best is Class.
type Complexity struct {
	Benchmark string            `json:"benchmark"`
	Mode      spec.Mode         `json:"mode"`
	Param     string            `json:"param"`  // n
	Params    map[string]string `json:"params"` // the other params
	Runs      []string          `json:"runs"`   // the fitted runs' keys, n ascending
	N         []Float           `json:"n"`      // n of each run
	Class     string            `json:"class"`
	// Coefficient is the time per op per unit of the class, in ns.
	Coefficient Float `json:"coefficient"`
	// RMS is Google Benchmark's normalised RMS error of the fit: the
	// residuals' root mean square over the mean time per op.
	RMS Float `json:"rms"`
	// Next is the next-best class; Apart says whether the scores'
	// errors tell the best from it (stats.Apart).
	Next  string `json:"next"`
	Apart bool   `json:"apart"`
	// Expected is the class the spec named (not auto); Holds, whether it
	// is the best or cannot be told from it.
	Expected string `json:"expected,omitempty"`
	Holds    *bool  `json:"holds,omitempty"`
}

// Fits fits the complexity of every sweep of runs whose settings ask
// for it, in the order of their first run. A sweep of fewer than 4
// scored values of n (runs failed) gets no fit.
func Fits(runs []Run) []Complexity {
	type group struct {
		runs []*Run
		vals map[string][]string
	}
	var order []string
	groups, byKey := map[string]*group{}, map[string]*Run{}
	for i := range runs {
		r := &runs[i]
		if r.Settings.Complexity == "" || r.NoScore() {
			continue
		}
		k := fmt.Sprint(r.Spec, r.Entry, r.Benchmark, r.Mode)
		if groups[k] == nil {
			order = append(order, k)
			groups[k] = &group{vals: map[string][]string{}}
		}
		groups[k].runs, byKey[r.Key] = append(groups[k].runs, r), r
		for p, v := range r.Params {
			groups[k].vals[p] = append(groups[k].vals[p], v)
		}
	}
	var out []Complexity
	for _, k := range order {
		g := groups[k]
		n, err := spec.ComplexityParam(g.vals)
		if err != nil {
			continue
		}
		bySweep := map[string]*Complexity{}
		var sweeps []*Complexity
		for _, r := range g.runs {
			others := maps.Clone(r.Params)
			delete(others, n)
			sk := fmt.Sprint(others)
			if bySweep[sk] == nil {
				bySweep[sk] = &Complexity{Benchmark: r.Benchmark, Mode: r.Mode, Param: n, Params: others, Expected: strings.TrimPrefix(r.Settings.Complexity, "auto")}
				sweeps = append(sweeps, bySweep[sk])
			}
			if t, _ := TimePerOp(r); t > 0 && !math.IsInf(t, 0) {
				bySweep[sk].Runs = append(bySweep[sk].Runs, r.Key)
			}
		}
		for _, c := range sweeps {
			if c.fit(byKey) {
				out = append(out, *c)
			}
		}
	}
	return out
}

// fit fits c's runs, their time per op in ns against n; false when there
// are fewer than 4 values of n.
func (c *Complexity) fit(byKey map[string]*Run) bool {
	slices.SortFunc(c.Runs, func(a, b string) int {
		return cmp.Compare(paramFloat(byKey[a], c.Param), paramFloat(byKey[b], c.Param))
	})
	var n, y, sigma []float64
	for _, k := range c.Runs {
		r := byKey[k]
		t, s := TimePerOp(r)
		n, y, sigma = append(n, paramFloat(r, c.Param)), append(y, t), append(sigma, s)
	}
	if len(slices.Compact(slices.Clone(n))) < 4 {
		return false
	}
	fits := stats.FitClasses(n, y, sigma)
	c.N = floats(n)
	c.Class, c.Coefficient, c.RMS = string(fits[0].Class), Float(fits[0].Coef), Float(fits[0].RMS)
	c.Next, c.Apart = string(fits[1].Class), stats.Apart(fits, fits[1], len(n))
	if c.Expected != "" {
		i := slices.IndexFunc(fits, func(f stats.ClassFit) bool { return string(f.Class) == c.Expected })
		holds := i == 0 || i > 0 && !stats.Apart(fits, fits[i], len(n))
		c.Holds = &holds
	}
	return true
}

// TimePerOp is r's score as ns per op and its standard error: a rate's
// inverse (its error by the delta method); the 99.9 % error over the
// forks' t. The error is 0 when unknown (one fork).
func TimePerOp(r *Run) (ns, se float64) {
	m := r.Primary
	score, half := float64(m.Score), float64(m.ScoreError)
	if m.Variance != nil && m.Variance.Forks > 1 && half > 0 {
		se = half / stats.TQuantile(0.9995, float64(m.Variance.Forks-1))
	}
	unit := UnitNs(r.Settings.TimeUnit)
	if r.Mode.IsRate() {
		return unit / score, unit * se / (score * score)
	}
	return score * unit, se * unit
}

// Summary is the fit in a line: "n^2 (0.94 ns × n^2, RMS 1.2 %) over
// n=32–512, told from n^3", or "n or nlogn: cannot tell over n=32–512
// (best n: …)", and whether the class the spec named holds.
func (c *Complexity) Summary() string {
	over := fmt.Sprintf("over %s=%g–%g", c.Param, c.N[0], c.N[len(c.N)-1])
	best := fmt.Sprintf("%s (%.3g ns × %s, RMS %.1f %%)", c.Class, c.Coefficient, c.Class, 100*c.RMS)
	s := fmt.Sprintf("%s %s, told from %s", best, over, c.Next)
	if !c.Apart {
		s = fmt.Sprintf("%s or %s: cannot tell %s; best %s", c.Class, c.Next, over, best)
	}
	switch {
	case c.Holds == nil:
	case *c.Holds:
		s += "; " + c.Expected + " as expected"
	default:
		s += "; not " + c.Expected + " as expected"
	}
	return s
}

func paramFloat(r *Run, name string) float64 {
	v, _ := strconv.ParseFloat(r.Params[name], 64)
	return v
}
