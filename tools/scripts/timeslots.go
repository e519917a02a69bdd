//go:build ignore

// timeslots.go tests, on the reports tools/scripts/compare-rates.sh kept,
// whether the forks of one batch are independent samples, which the
// t-test of `benchspec compare` assumes, or share the machine's state
// of the seconds they ran in.
//
//	go run tools/scripts/timeslots.go OUTDIR [PHASE...]
//
// OUTDIR holds PHASE-I-a.json and PHASE-I-b.json for I = 1, 2, … (the
// phases default to idle, hog and planted): a batch each, or, as
// compare-rates.sh now writes them, each side's batches pooled with
// benchspec merge --pool. Each fork's start is its batch's env.start
// (a pooled fork's pooled_from.start) plus the wall time of the forks
// of that batch started before it (forks run one at a time; their PIDs
// give the order). Below, a "batch" is what one such report holds: with
// pooled reports, one side of a pair, whose forks came from several
// batches run in turn with the other side's; F about 1 then says that
// the pools' forks behave as independent samples, as compare assumes. Each fork's mean
// is taken relative to the median of its benchmark's fork means over all
// batches of its side (log scale), and scaled by the median absolute
// deviation, so that benchmarks of different spread weigh alike. It
// prints, per phase:
//
//   - the correlation of those residuals between two forks, by the time
//     between their starts, for forks of different benchmarks and of the
//     same benchmark: a machine whose speed stays for seconds shows
//     positive correlations at short lags that fade at long ones; forks
//     that are independent samples show about 0 at every lag;
//   - per benchmark, the one-way analysis of variance of the fork means
//     with batches as groups (one per side): F = mean square between
//     batches / mean square within (about 1 when forks are independent;
//     the 95 % point for 10 batches of 3 forks a side is about 1.7), the
//     intra-batch correlation (the share of the variance that batches
//     carry), the spread of forks within a batch, and how much the
//     difference of the two batches of a pair varies against what Welch's
//     test assumes from the spread of their forks (1 when forks are
//     independent);
//   - whether the shift between the two batches of a pair is batch-wide:
//     each benchmark's change (difference of the batch means, less its
//     mean over the pairs) in units of its spread over the pairs, and,
//     per pair, the mean of these over the benchmarks. Its variance is
//     1/k for k benchmarks that shift independently and 1 when the
//     whole batch shifts alike; a guard that calls a batch-wide shift
//     the machine's, not the code's, only helps in the second case.
//
// It only reads the reports; nothing is measured.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"
)

type report struct {
	Env struct {
		Start time.Time `json:"start"`
	} `json:"env"`
	Order *struct {
		Kind string `json:"kind"`
	} `json:"order"`
	Runs []struct {
		Benchmark string `json:"benchmark"`
		Forks     []struct {
			Warmup bool  `json:"warmup"`
			PID    int   `json:"pid"`
			WallNs int64 `json:"wall_ns"`
			Pooled *struct {
				Report string    `json:"report"`
				Start  time.Time `json:"start"`
			} `json:"pooled_from"`
			Iterations []struct {
				Phase string   `json:"phase"`
				Score *float64 `json:"score"`
			} `json:"iterations"`
		} `json:"forks"`
	} `json:"runs"`
}

type fork struct {
	bench string
	side  string
	batch int // pair number
	start float64
	log   float64 // log of the fork's mean score
	z     float64
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run tools/scripts/timeslots.go OUTDIR [PHASE...]")
		os.Exit(2)
	}
	phases := os.Args[2:]
	if len(phases) == 0 {
		phases = []string{"idle", "hog", "planted"}
	}
	for _, ph := range phases {
		forks, orders, err := load(os.Args[1], ph)
		if err != nil {
			fmt.Fprintln(os.Stderr, "timeslots:", err)
			os.Exit(2)
		}
		if len(forks) == 0 {
			fmt.Printf("%s: no reports %s-*-a.json in %s\n\n", ph, ph, os.Args[1])
			continue
		}
		fmt.Printf("%s: %d measured forks, order %v\n", ph, len(forks), orders)
		standardize(forks)
		lags(forks)
		anova(forks)
		batchWide(forks)
		fmt.Println()
	}
}

func load(dir, phase string) ([]fork, []string, error) {
	var forks []fork
	orders := map[string]bool{}
	for i := 1; ; i++ {
		found := 0
		for _, side := range []string{"a", "b"} {
			path := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.json", phase, i, side))
			data, err := os.ReadFile(path)
			if os.IsNotExist(err) {
				continue
			} else if err != nil {
				return nil, nil, err
			}
			found++
			var r report
			if err := json.Unmarshal(data, &r); err != nil {
				return nil, nil, fmt.Errorf("%s: %v", path, err)
			}
			kind := "declared"
			if r.Order != nil && r.Order.Kind != "" {
				kind = r.Order.Kind
			}
			orders[kind] = true
			// A pooled report's forks come from several batches: each
			// batch's forks are timed from that batch's start.
			type timed struct {
				pid  int
				wall int64
				f    *fork
			}
			batches := map[string][]timed{}
			starts := map[string]time.Time{"": r.Env.Start}
			for _, run := range r.Runs {
				for _, f := range run.Forks {
					origin := ""
					if f.Pooled != nil {
						origin = f.Pooled.Report
						starts[origin] = f.Pooled.Start
					}
					t := timed{pid: f.PID, wall: f.WallNs}
					sum, n := 0.0, 0
					for _, it := range f.Iterations {
						if it.Phase == "measurement" && it.Score != nil && *it.Score > 0 {
							sum += *it.Score
							n++
						}
					}
					if !f.Warmup && n > 0 {
						t.f = &fork{bench: run.Benchmark, side: side, batch: i, log: math.Log(sum / float64(n))}
					}
					batches[origin] = append(batches[origin], t)
				}
			}
			for origin, all := range batches {
				sort.Slice(all, func(i, j int) bool { return all[i].pid < all[j].pid })
				t := float64(starts[origin].UnixNano()) / 1e9
				for _, a := range all {
					if a.f != nil {
						a.f.start = t
						forks = append(forks, *a.f)
					}
					t += float64(a.wall) / 1e9
				}
			}
		}
		if found == 0 {
			break
		}
	}
	var kinds []string
	for k := range orders {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return forks, kinds, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// standardize sets each fork's z: its log mean less the median of its
// benchmark and side, over 1.4826 × the median absolute deviation,
// clipped to ±4.
func standardize(forks []fork) {
	groups := map[string][]int{}
	for i, f := range forks {
		groups[f.bench+" "+f.side] = append(groups[f.bench+" "+f.side], i)
	}
	for _, idx := range groups {
		var v []float64
		for _, i := range idx {
			v = append(v, forks[i].log)
		}
		m := median(v)
		var dev []float64
		for _, x := range v {
			dev = append(dev, math.Abs(x-m))
		}
		mad := 1.4826 * median(dev)
		for _, i := range idx {
			z := 0.0
			if mad > 0 {
				z = math.Max(-4, math.Min(4, (forks[i].log-m)/mad))
			}
			forks[i].z = z
		}
	}
}

type acc struct{ n, sx, sy, sxx, syy, sxy float64 }

func (a *acc) add(x, y float64) {
	a.n++
	a.sx += x
	a.sy += y
	a.sxx += x * x
	a.syy += y * y
	a.sxy += x * y
}

func (a *acc) String() string {
	if a.n < 3 {
		return "  -  "
	}
	cxy := a.sxy - a.sx*a.sy/a.n
	cxx := a.sxx - a.sx*a.sx/a.n
	cyy := a.syy - a.sy*a.sy/a.n
	if cxx <= 0 || cyy <= 0 {
		return "  -  "
	}
	return fmt.Sprintf("%+.2f", cxy/math.Sqrt(cxx*cyy))
}

var edges = []float64{0.75, 1.5, 3, 6, 12, 24, 48, math.Inf(1)}

func lags(forks []fork) {
	diff := make([]acc, len(edges))
	same := make([]acc, len(edges))
	for i := range forks {
		for j := range forks {
			lag := forks[j].start - forks[i].start
			if j == i || lag < 0 || lag == 0 && j < i {
				continue
			}
			k := sort.SearchFloat64s(edges, lag)
			if k == len(edges) {
				k--
			}
			if forks[i].bench == forks[j].bench {
				same[k].add(forks[i].z, forks[j].z)
			} else {
				diff[k].add(forks[i].z, forks[j].z)
			}
		}
	}
	fmt.Printf("  correlation of fork residuals by time between the forks' starts (pairs of forks):\n")
	fmt.Printf("  %-16s", "lag up to")
	for _, e := range edges {
		fmt.Printf(" %9s", fmt.Sprintf("%gs", e))
	}
	fmt.Println()
	for _, row := range []struct {
		name string
		a    []acc
	}{{"other benchmark", diff}, {"same benchmark", same}} {
		fmt.Printf("  %-16s", row.name)
		for k := range row.a {
			fmt.Printf(" %9s", fmt.Sprintf("%s/%d", row.a[k].String(), int(row.a[k].n)))
		}
		fmt.Println()
	}
}

func anova(forks []fork) {
	type key struct {
		side  string
		batch int
	}
	by := map[string]map[key][]float64{}
	var benches []string
	for _, f := range forks {
		if by[f.bench] == nil {
			by[f.bench] = map[key][]float64{}
			benches = append(benches, f.bench)
		}
		k := key{f.side, f.batch}
		by[f.bench][k] = append(by[f.bench][k], f.log)
	}
	sort.Strings(benches)
	fmt.Printf("  %-16s %6s %5s %8s %12s %9s\n", "benchmark", "F", "ICC", "fork sd", "var(diff)/W", "max |d|")
	for _, b := range benches {
		// One-way ANOVA within each side, pooled: batches are groups.
		var ssb, ssw, dfb, dfw, nsum, ngroups float64
		for _, side := range []string{"a", "b"} {
			var means []float64
			var all []float64
			for k, v := range by[b] {
				if k.side != side || len(v) < 2 {
					continue
				}
				m := mean(v)
				means = append(means, m)
				for _, x := range v {
					ssw += (x - m) * (x - m)
					all = append(all, x)
				}
				dfw += float64(len(v) - 1)
				nsum += float64(len(v))
				ngroups++
			}
			if len(means) < 2 {
				continue
			}
			g := mean(all)
			for k, v := range by[b] {
				if k.side == side && len(v) >= 2 {
					ssb += float64(len(v)) * (mean(v) - g) * (mean(v) - g)
				}
			}
			dfb += float64(len(means) - 1)
		}
		if dfb < 1 || dfw < 1 {
			continue
		}
		msb, msw := ssb/dfb, ssw/dfw
		n0 := nsum / ngroups
		vb := math.Max(0, (msb-msw)/n0)
		// Pairs: the difference of the batch means, against Welch's
		// variance of it.
		var d, pred []float64
		for i := 1; ; i++ {
			a, okA := by[b][key{"a", i}]
			c, okB := by[b][key{"b", i}]
			if !okA && !okB {
				break
			}
			if len(a) < 2 || len(c) < 2 {
				continue
			}
			d = append(d, mean(c)-mean(a))
			pred = append(pred, variance(a)/float64(len(a))+variance(c)/float64(len(c)))
		}
		ratio, maxd := math.NaN(), 0.0
		if len(d) >= 2 {
			ratio = variance(d) / mean(pred)
			md := mean(d)
			for _, x := range d {
				maxd = math.Max(maxd, math.Abs(x-md))
			}
		}
		fmt.Printf("  %-16s %6.2f %5.2f %7.1f%% %12.2f %8.1f%%\n", b, msb/msw, vb/(vb+msw), 100*math.Sqrt(msw), ratio, 100*(math.Exp(maxd)-1))
	}
	fmt.Println("  (F: between-batch / within-batch mean square; ICC: the share of the variance batches carry;")
	fmt.Println("   fork sd: within a batch; var(diff)/W: the pairs' difference of batch means, its variance")
	fmt.Println("   against Welch's; max |d|: the largest difference of a pair from the pairs' mean difference)")
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func variance(v []float64) float64 {
	m, s := mean(v), 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return s / float64(len(v)-1)
}

// batchWide prints, per pair, the mean over the benchmarks of their
// standardized changes, and the variance of that mean against 1/k.
func batchWide(forks []fork) {
	type key struct {
		bench string
		batch int
	}
	sum := map[key]map[string][]float64{}
	benchSet := map[string]bool{}
	pairs := 0
	for _, f := range forks {
		k := key{f.bench, f.batch}
		if sum[k] == nil {
			sum[k] = map[string][]float64{}
		}
		sum[k][f.side] = append(sum[k][f.side], f.log)
		benchSet[f.bench] = true
		pairs = max(pairs, f.batch)
	}
	if len(benchSet) < 2 {
		return
	}
	var benches []string
	for b := range benchSet {
		benches = append(benches, b)
	}
	sort.Strings(benches)
	z := map[key]float64{}
	for _, b := range benches {
		var d []float64
		var ks []key
		for i := 1; i <= pairs; i++ {
			s := sum[key{b, i}]
			if len(s["a"]) > 0 && len(s["b"]) > 0 {
				d = append(d, mean(s["b"])-mean(s["a"]))
				ks = append(ks, key{b, i})
			}
		}
		if len(d) < 3 {
			return
		}
		m, sd := mean(d), math.Sqrt(variance(d))
		for j, k := range ks {
			z[k] = (d[j] - m) / sd
		}
	}
	var means []float64
	for i := 1; i <= pairs; i++ {
		var v []float64
		for _, b := range benches {
			if x, ok := z[key{b, i}]; ok {
				v = append(v, x)
			}
		}
		if len(v) == len(benches) {
			means = append(means, mean(v))
		}
	}
	if len(means) < 2 {
		return
	}
	ss := 0.0
	fmt.Printf("  per pair, the mean standardized change over %d benchmarks:", len(benches))
	for _, m := range means {
		fmt.Printf(" %+.2f", m)
		ss += m * m
	}
	fmt.Printf("\n  its variance %.3f (%.3f when benchmarks shift independently, 1 when the batch shifts alike)\n", ss/float64(len(means)), 1/float64(len(benches)))
}
