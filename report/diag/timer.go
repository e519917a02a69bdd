package diag

import (
	"fmt"
	"math"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// timerResolution fires when the clock is too coarse or too slow for the
// intervals it timed: its resolution or the cost of one read is more than
// TimerRatio of the typical (median) timed interval.
func timerResolution(in *Input, th spec.DiagSettings) []Diagnostic {
	interval, what := timedInterval(in)
	res, ovh := clockCost(in.Forks)
	cost := math.Max(res, ovh)
	if math.IsNaN(interval) || interval <= 0 || math.IsNaN(cost) || cost <= th.TimerRatio*interval {
		return nil
	}
	ratio := cost / interval
	ev := map[string]float64{"interval_ns": interval, "resolution_ns": res, "overhead_ns": ovh, "ratio": ratio}
	msg := fmt.Sprintf("%s took %s ns (median), but the clock's resolution is %s ns and one read costs %s ns: %s of the interval, over %s; the score measures the clock as much as the code.",
		what, num(interval), num(res), num(ovh), pct(ratio), pct(th.TimerRatio))
	if in.Mode.TimesBatch() {
		batch := max(in.Settings.Measurement.BatchSize, 1)
		want := niceCeil(float64(batch) * cost / (th.TimerRatio * interval))
		ev["batch_size"], ev["suggested_batch_size"] = float64(batch), want
		msg += fmt.Sprintf(" Raise measurement.batch_size (and warmup.batch_size) to at least %s, with ops_per_invocation the same to keep the score per call.", num(want))
	} else {
		msg += " Make the iterations longer (measurement.time)."
	}
	return []Diagnostic{{Code: TimerResolution, Severity: SeverityWarning, Message: msg, Evidence: ev}}
}

// timedInterval is the median length in nanoseconds of what one clock
// reading pair timed, per thread: in ss one batch, in sample one sampled
// batch, in thrpt and avgt a whole iteration.
func timedInterval(in *Input) (float64, string) {
	threads := float64(max(in.Threads, 1))
	batch := max(in.Settings.Measurement.BatchSize, 1)
	calls := fmt.Sprintf("%d call", batch)
	if batch != 1 {
		calls += "s"
	}
	if in.Mode.Samples() {
		if in.Samples == nil || in.Samples.Count() == 0 {
			return math.NaN(), ""
		}
		return in.Samples.Quantile(0.5) * float64(max(in.Settings.OpsPerInvocation, 1)), in.Mode.Times() + " of " + calls
	}
	var xs []float64
	for _, f := range in.Forks {
		for _, it := range f.Iterations {
			if it.Phase != protocol.PhaseMeasurement {
				continue
			}
			t := it.TimeNs
			if !in.Mode.IsRate() { // a rate's threads share one window: thrpt's TimeNs is already per thread
				t /= threads
			}
			xs = append(xs, t)
		}
	}
	if len(xs) == 0 {
		return math.NaN(), ""
	}
	if !in.Mode.TimedIterations() {
		return stats.Median(xs), fmt.Sprintf("%s times %s of %s per iteration, which", in.Mode, in.Mode.Times(), calls)
	}
	return stats.Median(xs), in.Mode.Times()
}

// clockCost is the median resolution and read overhead over the forks
// that calibrated their clock; NaN when none did.
func clockCost(forks []protocol.ForkResult) (res, ovh float64) {
	var rs, os []float64
	for _, f := range forks {
		if f.Timer.ResolutionNs > 0 {
			rs = append(rs, f.Timer.ResolutionNs)
		}
		if f.Timer.OverheadNs > 0 {
			os = append(os, f.Timer.OverheadNs)
		}
	}
	return stats.Median(rs), stats.Median(os)
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}
