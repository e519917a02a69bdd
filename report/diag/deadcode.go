package diag

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// deadCode fires when one call of the body costs less than DeadCodeRatio
// times an empty loop iteration of its own fork (about one cycle): the
// body adds less than about two cycles, so its work was compiled away or
// is too small to measure. The empty loop's cost is the fork's floor, the
// fastest of its baseline iterations in either loop form: interference
// only adds time, so a slow spell moves the baseline's median but not its
// floor, and the cheaper form's floor fires less often, never more. Each
// fork is judged against its own floor, because a loop iteration's cost
// is the process's; the median of the per-iteration ratios over all forks
// decides, so neither a preempted iteration nor one disturbed fork does.
func deadCode(in *Input, th spec.DiagSettings) []Diagnostic {
	var floors, loops, invs, base, calls, rel, ratios []float64
	for i := range in.Forks {
		t := &in.Forks[i].Timer
		floor, c := t.BaselineFloorNs(), callTimes(in, i)
		if !(floor > 0) || len(c) == 0 || !finite(c) {
			continue
		}
		for _, x := range c {
			rel = append(rel, x/floor)
		}
		floors, ratios = append(floors, floor), append(ratios, stats.Median(c)/floor)
		calls = append(calls, c...)
		for _, b := range [][]float64{t.BaselineNs, t.BaselineInvocationsNs} {
			if finite(b) {
				base = append(base, b...)
			}
		}
		loops = appendFloor(loops, t.BaselineNs)
		invs = appendFloor(invs, t.BaselineInvocationsNs)
	}
	if len(rel) == 0 || stats.Median(rel) >= th.DeadCodeRatio {
		return nil
	}
	b, c := intervalOf(base), intervalOf(calls)
	fm, cm := stats.Median(floors), stats.Median(calls)
	ratio := stats.Median(rel)
	ev := map[string]float64{
		"call_ns": cm, "call_mean_ns": c.mean, "call_ci_low": c.lo(), "call_ci_high": c.hi(),
		"baseline_ns": fm, "baseline_mean_ns": b.mean, "baseline_ci_low": b.lo(), "baseline_ci_high": b.hi(),
		"ratio": ratio,
	}
	var forms []string
	if len(loops) > 0 {
		ev["baseline_loop_ns"] = stats.Median(loops)
		forms = append(forms, "for b.Loop() "+num(stats.Median(loops)))
	}
	if len(invs) > 0 {
		ev["baseline_invocations_ns"] = stats.Median(invs)
		forms = append(forms, "for range b.Invocations() "+num(stats.Median(invs)))
	}
	for i, r := range ratios {
		ev["ratio_fork_"+strconv.Itoa(i+1)] = r
	}
	each := ""
	if len(forms) > 0 {
		each = "; by form, " + strings.Join(forms, " and ")
	}
	return []Diagnostic{{
		Code:     DeadCode,
		Severity: SeverityWarning,
		Message: fmt.Sprintf("a call takes %s ns (median; mean %s, 99.9 %% CI [%s, %s]) against an empty loop iteration's %s ns "+
			"(the median over the forks of each fork's fastest baseline iteration%s; all baseline iterations: mean %s, 99.9 %% CI [%s, %s]); "+
			"measured against each fork's own empty loop, a call takes %s× it (median over all iterations; fork medians %s), under %s×: "+
			"the body adds less than about %s CPU cycles to an empty loop iteration (about one), so its work was probably compiled away, or is too small to measure. "+
			"Pass its result to benchspec.Sink inside the loop, or make it depend on state the loop changes; "+
			"if the benchmark measures the empty loop on purpose, ignore DEAD_CODE for it in the spec",
			num(cm), num(c.mean), num(c.lo()), num(c.hi()), num(fm), each, num(b.mean), num(b.lo()), num(b.hi()),
			num(ratio), list(ratios, num), num(th.DeadCodeRatio), num(th.DeadCodeRatio-1)),
		Evidence: ev,
	}}
}

// appendFloor appends the fastest positive, finite value of xs to floors,
// if it has one.
func appendFloor(floors, xs []float64) []float64 {
	t := protocol.TimerCalibration{BaselineNs: xs}
	if f := t.BaselineFloorNs(); f > 0 {
		floors = append(floors, f)
	}
	return floors
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
