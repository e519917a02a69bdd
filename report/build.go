package report

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// Build computes the report of a plan from the results of its forks, in
// any order. env is the static environment (report/host.CollectEnv);
// Build fills in the timer calibration from the forks, and End with the
// current time when it is zero.
//
// A group's run gives the group's row followed by one row per member
// (memberRows). Runs without any fork result are left out and make the
// report incomplete. Fork results whose run index is not in the plan are ignored.
// The part of a sharded plan (plan.Shard) records its Shard. Order is the
// caller's to set: the plan does not know it.
func Build(p *plan.Plan, forks []protocol.ForkResult, env Env) *Report {
	byRun := make([][]protocol.ForkResult, len(p.Runs))
	for _, f := range forks {
		if f.Run >= 0 && f.Run < len(byRun) {
			byRun[f.Run] = append(byRun[f.Run], f)
		}
	}
	rep := &Report{
		SchemaVersion: SchemaVersion,
		Complete:      true,
		Suite:         p.Suite,
		Env:           env,
		Specs:         append([]plan.SpecRef{}, p.Specs...),
		Runs:          []Run{},
	}
	if s := p.Shard; s != nil {
		shard := *s
		shard.PlannedRuns = append([]string{}, s.PlannedRuns...)
		rep.Shard = &shard
	}
	var resolution, overhead []float64
	for i, fs := range byRun {
		if len(fs) == 0 {
			rep.Complete = false
			continue
		}
		run, complete := buildRun(&p.Runs[i], fs, env.GOMAXPROCS)
		rep.Complete = rep.Complete && complete
		rep.Runs = append(append(rep.Runs, run), memberRows(&p.Runs[i], fs, env.GOMAXPROCS)...)
		for _, f := range fs {
			if !f.Failed() && f.Timer.ResolutionNs > 0 {
				resolution = append(resolution, f.Timer.ResolutionNs)
			}
			if !f.Failed() && f.Timer.OverheadNs > 0 {
				overhead = append(overhead, f.Timer.OverheadNs)
			}
		}
	}
	rep.Env.TimerResolutionNs, rep.Env.TimerOverheadNs = Float(stats.Median(resolution)), Float(stats.Median(overhead))
	if rep.Env.Check != nil {
		check := *rep.Env.Check
		recheckEnv(&check, p, env.GOMAXPROCS)
		rep.Env.Check = &check
	}
	if rep.Env.End.IsZero() {
		rep.Env.End = time.Now()
	}
	return rep
}

// BuildRun computes one run of the report from all its forks, as Build
// does (a group's row only, not its members'): the live run log shows a
// run's result with it the moment the run ends. gomaxprocs is the parent's (Env.GOMAXPROCS), which a run's
// threads default to.
func BuildRun(r *plan.Run, forks []protocol.ForkResult, gomaxprocs int) Run {
	run, _ := buildRun(r, append([]protocol.ForkResult(nil), forks...), gomaxprocs)
	return run
}

// buildRun computes one run from all its forks, sorting them. complete is false when
// the run stopped before all its measured forks ran without a failure.
func buildRun(r *plan.Run, forks []protocol.ForkResult, gomaxprocs int) (run Run, complete bool) {
	sort.SliceStable(forks, func(i, j int) bool { return forks[i].Fork < forks[j].Fork })
	unit := UnitNs(r.Settings.TimeUnit)
	n := threads(r.Settings, gomaxprocs)
	run = Run{
		Key:              r.Key,
		Benchmark:        r.Benchmark,
		Params:           make(map[string]string, len(r.Params)),
		Mode:             r.Mode,
		Threads:          n,
		Settings:         settingsOf(r, n),
		Spec:             r.Spec,
		Entry:            r.Entry,
		Status:           StatusOK,
		SecondaryMetrics: map[string]Metric{},
		Diagnostics:      []Diagnostic{},
		Forks:            make([]Fork, len(forks)),
	}
	for _, p := range r.Params {
		run.Params[p.Name] = p.Value
	}
	if g := r.GoTest; g != nil {
		run.GoTest = &GoTestRef{ImportPath: g.ImportPath, Labels: g.Labels}
	}
	if len(r.Group) > 0 && r.Member == "" {
		run.Group = r.Benchmark
	}
	var measured []*protocol.ForkResult
	for i := range forks {
		f := &forks[i]
		run.Forks[i] = forkOf(r.Mode, unit, f)
		if f.Failed() && run.Status == StatusOK {
			run.Status, run.Error, run.StderrTail = StatusFailed, fmt.Sprintf("fork %d: %s", f.Fork, f.Err), f.StderrTail
		}
		if !f.Warmup {
			measured = append(measured, f)
		}
	}
	if run.Failed() {
		return run, true
	}
	if skipped, reason := skipOf(measured); skipped == len(measured) && skipped > 0 {
		run.Status, run.SkipReason = StatusSkipped, reason
		return run, len(measured) >= max(r.Settings.Forks, 1)
	} else if skipped > 0 {
		run.Status = StatusFailed
		run.Error = fmt.Sprintf("the benchmark skipped itself in %d of %d measured forks (%s) and ran in the others", skipped, len(measured), strings.Join(strings.Fields(reason), " "))
		return run, true
	}
	if want := max(r.Settings.Forks, 1); len(measured) < want {
		run.Status = StatusFailed
		run.Error = fmt.Sprintf("incomplete: %d of %d measured forks ran", len(measured), want)
		return run, false
	}
	switch timed, untimed := timedCount(measured); {
	case untimed > 0 && timed > 0:
		run.Status = StatusFailed
		run.Error = fmt.Sprintf("%d measurement iterations reported a time per op and %d removed it (b.ReportMetric(0, \"ns/op\")): there is no one primary metric", timed, untimed)
		return run, true
	case untimed > 0:
		// The benchmark removed ns/op: as under go test, its own metrics
		// are its results, and there is no score.
		addSecondary(run.SecondaryMetrics, measured)
		return run, true
	}
	samples := mergeSamples(measured)
	primary := primaryOf(r, unit, measured, samples)
	run.Primary = &primary
	if primary.Histogram != nil {
		// JMH's "·p0.50": each percentile again as a one-value metric
		for _, p := range percentiles {
			v := float64(primary.Percentiles[p.Key])
			run.SecondaryMetrics[p.Name] = metricOf([][]float64{{v}}, primary.ScoreUnit)
		}
	}
	addSecondary(run.SecondaryMetrics, measured)
	run.Diagnostics = diagnose(r, run.Threads, measured, &primary, samples)
	if pr := r.Settings.Precision; pr.Set() {
		run.Primary.withTarget(pr.Error)
		run.Precision = precisionOf(r, forks)
	}
	return run, true
}

// mergeSamples merges the sample histograms of all measurement iterations
// of the measured forks.
func mergeSamples(measured []*protocol.ForkResult) *hist.Histogram {
	h := &hist.Histogram{}
	for _, f := range measured {
		for _, it := range f.Iterations {
			if it.Phase == protocol.PhaseMeasurement && it.Histogram != nil {
				h.Merge(hist.FromSnapshot(*it.Histogram))
			}
		}
	}
	return h
}

// primaryOf computes the primary metric over the measurement iterations of
// the measured forks; in sample mode over their merged samples.
func primaryOf(r *plan.Run, unit float64, measured []*protocol.ForkResult, samples *hist.Histogram) Metric {
	name := r.Mode.Unit(r.Settings.TimeUnit)
	raw := make([][]float64, len(measured))
	for i, f := range measured {
		raw[i] = []float64{}
		for j := range f.Iterations {
			it := &f.Iterations[j]
			if it.Phase != protocol.PhaseMeasurement {
				continue
			}
			raw[i] = append(raw[i], score(r.Mode, unit, it))
		}
	}
	if r.Mode.Samples() && samples.Count() > 0 {
		return metricOfHist(samples, unit, name, raw)
	}
	return metricOf(raw, name)
}

// addSecondary adds to into the fork metrics averaged over the measured
// forks, and the iteration metrics averaged over the measurement
// iterations (these win over a fork metric of the same name). A metric's
// name is also its unit.
func addSecondary(into map[string]Metric, measured []*protocol.ForkResult) {
	forkRaw := map[string][][]float64{}
	for _, f := range measured {
		for name, v := range f.Metrics {
			forkRaw[name] = append(forkRaw[name], []float64{v})
		}
	}
	iterRaw := map[string][][]float64{}
	for i, f := range measured {
		for _, it := range f.Iterations {
			if it.Phase != protocol.PhaseMeasurement {
				continue
			}
			for name, v := range it.Metrics {
				if iterRaw[name] == nil {
					iterRaw[name] = make([][]float64, len(measured))
				}
				iterRaw[name][i] = append(iterRaw[name][i], v)
			}
		}
	}
	for _, raws := range []map[string][][]float64{forkRaw, iterRaw} {
		for name, raw := range raws {
			for i := range raw {
				if raw[i] == nil {
					raw[i] = []float64{}
				}
			}
			into[name] = metricOf(raw, name)
		}
	}
}

// threads resolves `threads: max` to the GOMAXPROCS the forks run with:
// the spec's GOMAXPROCS environment variable, else gomaxprocs (the
// parent's), else this process's.
func threads(s spec.Settings, gomaxprocs int) int {
	if s.Threads != spec.ThreadsMax {
		return s.Threads
	}
	if n, err := strconv.Atoi(s.Env["GOMAXPROCS"]); err == nil && n > 0 {
		return n
	}
	if gomaxprocs > 0 {
		return gomaxprocs
	}
	return runtime.GOMAXPROCS(0)
}

// settingsOf is the plan's settings of r narrowed to what the run ran
// (its one mode, its resolved threads), with the diagnostics' defaults
// filled in and env and profilers never nil, so that JSON has {} and []
// where the schema wants them.
func settingsOf(r *plan.Run, threads int) spec.Settings {
	s := r.Settings.Clone()
	s.Modes, s.Threads = []spec.Mode{r.Mode}, threads
	if s.Env == nil {
		s.Env = map[string]string{}
	}
	if s.Profilers == nil {
		s.Profilers = []string{}
	}
	s.Diagnostics = s.Diagnostics.WithDefaults()
	return s
}

func forkOf(mode spec.Mode, unit float64, f *protocol.ForkResult) Fork {
	out := Fork{
		Fork:       f.Fork,
		Warmup:     f.Warmup,
		Duet:       f.Duet,
		PID:        f.PID,
		ExitStatus: f.ExitStatus,
		WallNs:     int64(f.Wall),
		Timer:      Timer{ResolutionNs: positive(f.Timer.ResolutionNs), OverheadNs: positive(f.Timer.OverheadNs), BaselineNs: optionalFloats(f.Timer.BaselineNs), BaselineInvocationsNs: optionalFloats(f.Timer.BaselineInvocationsNs)},
		Iterations: make([]Iteration, len(f.Iterations)),
		Metrics:    floatMap(f.Metrics),
		Profiles:   f.Profiles,
		Error:      f.Err,
	}
	for i := range f.Iterations {
		it := &f.Iterations[i]
		out.Iterations[i] = Iteration{
			Phase:       it.Phase,
			Index:       it.Index,
			Ops:         Float(it.Ops),
			TimeNs:      Float(it.TimeNs),
			Invocations: it.Invocations,
			NoTime:      it.NoTime,
			Score:       Float(iterScore(mode, unit, it)),
		}
		if it.Histogram != nil {
			out.Iterations[i].Samples = it.Histogram.Count
		}
		if len(it.Metrics) > 0 {
			out.Iterations[i].Metrics = floatMap(it.Metrics)
		}
	}
	return out
}

// positive is v, or NaN (null) when v was not measured.
func positive(v float64) Float {
	if v <= 0 {
		return NaN()
	}
	return Float(v)
}

func floatMap(m map[string]float64) map[string]Float {
	out := make(map[string]Float, len(m))
	for k, v := range m {
		out[k] = Float(v)
	}
	return out
}

// skipOf counts the forks that skipped, with the first one's reason.
func skipOf(forks []*protocol.ForkResult) (n int, reason string) {
	for _, f := range forks {
		if f.Skipped != "" {
			if n == 0 {
				reason = f.Skipped
			}
			n++
		}
	}
	return n, reason
}

// timedCount counts the measurement iterations that reported a time per
// op and those that removed it (protocol.Iteration.NoTime).
func timedCount(forks []*protocol.ForkResult) (timed, untimed int) {
	for _, f := range forks {
		for _, it := range f.Iterations {
			switch {
			case it.Phase != protocol.PhaseMeasurement:
			case it.NoTime:
				untimed++
			default:
				timed++
			}
		}
	}
	return timed, untimed
}

// iterScore is an iteration's score; NaN for one without a time.
func iterScore(mode spec.Mode, unit float64, it *protocol.Iteration) float64 {
	if it.NoTime {
		return math.NaN()
	}
	return score(mode, unit, it)
}
