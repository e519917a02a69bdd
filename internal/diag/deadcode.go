package diag

import (
	"fmt"
	"strconv"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/spec"
)

// deadCode fires when one call of the body costs less than DeadCodeRatio
// times the empty loop in every fork: each fork measures the empty body
// with the same Loop before its benchmark (TimerCalibration.BaselineNs),
// and an empty loop iteration takes about one cycle, so below twice the
// baseline the body adds less than a cycle — its work was compiled
// away, or it is too small to measure. Each fork is compared with its own
// baseline, because the cost of a loop iteration is a property of the
// process (where its code and data landed): a body measured in a fork
// whose loop ran slow, against the baseline of a fork whose loop ran
// fast, looks alive or dead by accident. Every iteration's call time is
// divided by its own fork's median baseline, and the median of these
// ratios over all forks decides, so that neither a preempted iteration
// nor one disturbed fork does.
func deadCode(in *Input, th spec.DiagSettings) []Diagnostic {
	var base, calls, rel, ratios []float64
	for i := range in.Forks {
		b, c := in.Forks[i].Timer.BaselineNs, callTimes(in, i)
		if len(b) == 0 || len(c) == 0 || !finite(b) || !finite(c) {
			continue
		}
		// Medians on both sides, so that a busy machine inflates both
		// alike; one preempted baseline iteration can raise the
		// baseline's mean tenfold.
		bm := median(b)
		if bm <= 0 {
			return nil
		}
		for _, x := range c {
			rel = append(rel, x/bm)
		}
		base, calls, ratios = append(base, b...), append(calls, c...), append(ratios, median(c)/bm)
	}
	if len(rel) == 0 || median(rel) >= th.DeadCodeRatio {
		return nil
	}
	b, c := intervalOf(base), intervalOf(calls)
	bm, cm := median(base), median(calls)
	ratio := median(rel)
	ev := map[string]float64{
		"call_ns": cm, "call_mean_ns": c.mean, "call_ci_low": c.lo(), "call_ci_high": c.hi(),
		"baseline_ns": bm, "baseline_mean_ns": b.mean, "baseline_ci_low": b.lo(), "baseline_ci_high": b.hi(),
		"ratio": ratio,
	}
	for i, r := range ratios {
		ev["ratio_fork_"+strconv.Itoa(i+1)] = r
	}
	return []Diagnostic{{
		Code:     DeadCode,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("a call takes %s ns (median; mean %s, 99.9 %% CI [%s, %s]) against the empty loop's %s ns (median; mean %s, CI [%s, %s]); "+
			"measured against each fork's own empty loop (median), a call takes %s× it (median over all iterations; fork medians %s), under %s×: "+
			"the body adds less than about %s CPU cycles to an empty loop iteration (about one), so its work was probably compiled away, or is too small to measure. "+
			"Pass its result to benchspec.Sink inside the loop, or make it depend on state the loop changes; "+
			"if the benchmark measures the empty loop on purpose, ignore DEAD_CODE for it in the spec",
			num(cm), num(c.mean), num(c.lo()), num(c.hi()), num(bm), num(b.mean), num(b.lo()), num(b.hi()),
			num(ratio), list(ratios, num), num(th.DeadCodeRatio), num(th.DeadCodeRatio-1)),
		Evidence: ev,
	}}
}

// callTimes returns, per measurement iteration of measured fork i, the
// time of one call of the body in nanoseconds per thread — the same
// quantity the baseline measures. Single-shot and sample mode time each
// batch with one clock read pair, whose cost is taken out.
func callTimes(in *Input, i int) []float64 {
	threads := float64(max(in.Threads, 1))
	opi := float64(max(in.Settings.OpsPerInvocation, 1))
	batch := float64(max(in.Settings.Measurement.BatchSize, 1))
	var out []float64
	for _, f := range in.Forks[i : i+1] {
		ovh := max(f.Timer.OverheadNs, 0)
		for _, it := range f.Iterations {
			if it.Phase != protocol.PhaseMeasurement {
				continue
			}
			switch m := in.Mode; {
			case m.Samples():
				if it.Histogram == nil || it.Histogram.Count == 0 {
					continue
				}
				perBatch := it.Histogram.Sum / float64(it.Histogram.Count) * opi
				out = append(out, max(perBatch-ovh, 0)/batch)
			case !m.TimedIterations(): // ss: one batch per iteration
				if it.Invocations > 0 {
					out = append(out, max(it.TimeNs-threads*ovh, 0)/float64(it.Invocations))
				}
			case m.IsRate(): // thrpt: TimeNs is the threads' mean window
				if it.Invocations > 0 {
					out = append(out, it.TimeNs*threads/float64(it.Invocations))
				}
			default: // avgt: TimeNs and Invocations add up over threads
				if it.Invocations > 0 {
					out = append(out, it.TimeNs/float64(it.Invocations))
				}
			}
		}
	}
	return out
}
