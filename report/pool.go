package report

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/diag"
	"github.com/benchspec/benchspec/report/stats"
)

// PooledFrom is where a fork of a pooled run (Pool, `benchspec merge
// --pool`) was measured: the report it came from, as named to merge,
// that report's start, and the fork's number in it.
type PooledFrom struct {
	Report string    `json:"report"`
	Start  time.Time `json:"start"`
	Fork   int       `json:"fork"`
}

// PoolError is the error of a pool whose inputs are not the same
// measurement: every difference found, each naming the files, the run
// (when it is one run's) and the field.
type PoolError struct {
	Problems []string
}

// Error lists every problem, one per line.
func (e *PoolError) Error() string {
	return "report: cannot pool: " + strings.Join(e.Problems, "\n")
}

// Pool combines batches of one build on one machine — run in turn with
// another build's, so that each side's forks sample many of the
// machine's time slots — into one report as if one batch had run every
// fork. A run's forks are the union of the inputs' (numbered on, each
// with Fork.Pooled saying where it came from), and its statistics and
// diagnostics are computed again by Build's own code (buildRun). A run
// failed in any input is failed; skipped in some and run in others, it is
// failed too; held by only some inputs, it is pooled from those with a
// warning. Env is the first input's, with the earliest Start, the latest
// End and the environment check of the busiest input: a pool is only as
// trustworthy as its worst batch.
//
// Inputs that are not the same measurement (suite, sources, toolchain,
// machine; per run anything but the number of forks), shards, sample
// mode and precision runs give a *PoolError listing every difference,
// and no report.
func Pool(inputs []Named) (*Report, []string, error) {
	if len(inputs) == 0 {
		return nil, nil, fmt.Errorf("report: nothing to pool")
	}
	var e PoolError
	first := inputs[0]
	for _, in := range inputs {
		if in.Report.Shard != nil {
			e.Problems = append(e.Problems, fmt.Sprintf("%s is shard %d/%d of a plan: merge the shards of each batch first, then pool the merged reports", in.Name, in.Report.Shard.Index, in.Report.Shard.Count))
		}
	}
	for _, in := range inputs[1:] {
		for _, d := range identityDifferences(first.Report, in.Report) {
			e.Problems = append(e.Problems, fmt.Sprintf("%s and %s are not reports of the same build on the same machine: %s", first.Name, in.Name, d))
		}
	}
	// Each run key, in order of first appearance, with its occurrences.
	type occurrence struct {
		input int
		run   *Run
	}
	var order []string
	byKey := map[string][]occurrence{}
	for i, in := range inputs {
		seen := map[string]bool{}
		for j := range in.Report.Runs {
			run := &in.Report.Runs[j]
			if seen[run.Key] {
				e.Problems = append(e.Problems, fmt.Sprintf("%s holds run %q twice", in.Name, run.Key))
				continue
			}
			seen[run.Key] = true
			if byKey[run.Key] == nil {
				order = append(order, run.Key)
			}
			byKey[run.Key] = append(byKey[run.Key], occurrence{i, run})
		}
	}
	for _, key := range order {
		occ := byKey[key]
		r0 := occ[0].run
		for _, o := range occ {
			name := inputs[o.input].Name
			if o.run.Mode.Samples() {
				e.Problems = append(e.Problems, fmt.Sprintf("%s: run %q: mode %s: a report keeps sample mode's samples merged over the run's forks, not per fork, so its forks cannot be pooled", name, key, o.run.Mode))
			}
			if o.run.Settings.Precision.Set() {
				e.Problems = append(e.Problems, fmt.Sprintf("%s: run %q: settings.precision is set: a precision run's forks and its record of why it stopped belong to one batch; pool runs with a fixed number of forks", name, key))
			}
		}
		for _, o := range occ[1:] {
			for _, d := range runDifferences(r0, o.run) {
				e.Problems = append(e.Problems, fmt.Sprintf("%s and %s: run %q: %s", inputs[occ[0].input].Name, inputs[o.input].Name, key, d))
			}
		}
	}
	if len(e.Problems) > 0 {
		return nil, nil, &e
	}

	out := &Report{SchemaVersion: SchemaVersion, Complete: true, Suite: first.Report.Suite, Env: first.Report.Env,
		Specs: []plan.SpecRef{}, Order: poolOrder(inputs), Runs: []Run{}, Sources: first.Report.Sources}
	var labels, warnings []string
	seenSpec, seenLabel := map[plan.SpecRef]bool{}, map[string]bool{}
	for _, in := range inputs {
		r := in.Report
		out.Complete = out.Complete && r.Complete
		for _, s := range r.Specs {
			if !seenSpec[s] {
				seenSpec[s] = true
				out.Specs = append(out.Specs, s)
			}
		}
		if r.Label != "" && !seenLabel[r.Label] {
			seenLabel[r.Label] = true
			labels = append(labels, r.Label)
		}
		if r.Env.Start.Before(out.Env.Start) {
			out.Env.Start = r.Env.Start
		}
		if r.Env.End.After(out.Env.End) {
			out.Env.End = r.Env.End
		}
	}
	out.Label = strings.Join(labels, "+")
	out.Env.Check = busiestCheck(inputs)
	var resolution, overhead []float64
	for _, key := range order {
		occ := byKey[key]
		if len(occ) < len(inputs) {
			var in, lack []string
			holds := map[int]bool{}
			for _, o := range occ {
				holds[o.input] = true
				in = append(in, inputs[o.input].Name)
			}
			for i := range inputs {
				if !holds[i] {
					lack = append(lack, inputs[i].Name)
				}
			}
			warnings = append(warnings, fmt.Sprintf("run %q is pooled from %s only: %s lack%s it", key, strings.Join(in, ", "), strings.Join(lack, ", "), map[bool]string{true: "s"}[len(lack) == 1]))
		}
		runs := make([]*Run, len(occ))
		names := make([]string, len(occ))
		for i, o := range occ {
			runs[i], names[i] = o.run, inputs[o.input].Name
		}
		starts := make([]time.Time, len(occ))
		for i, o := range occ {
			starts[i] = inputs[o.input].Report.Env.Start
		}
		run := poolRun(runs, names, starts, out.Env.GOMAXPROCS)
		for _, f := range run.Forks {
			if f.Error != "" {
				continue
			}
			if f.Timer.ResolutionNs.Valid() {
				resolution = append(resolution, float64(f.Timer.ResolutionNs))
			}
			if f.Timer.OverheadNs.Valid() {
				overhead = append(overhead, float64(f.Timer.OverheadNs))
			}
		}
		out.Runs = append(out.Runs, run)
	}
	out.Env.TimerResolutionNs, out.Env.TimerOverheadNs = Float(stats.Median(resolution)), Float(stats.Median(overhead))
	return out, warnings, nil
}

// poolRun pools one run's occurrences (same key, checked alike) from the
// inputs named names, which started at starts.
func poolRun(runs []*Run, names []string, starts []time.Time, gomaxprocs int) Run {
	var forks []Fork
	var origins []PooledFrom
	next := 0
	for i, r := range runs {
		top := 0
		for _, f := range r.Forks {
			g := f
			from := PooledFrom{Report: names[i], Start: starts[i], Fork: f.Fork}
			if f.Pooled != nil { // pooled before: keep where it was measured
				from = *f.Pooled
			}
			g.Fork = next + f.Fork
			g.Pooled = &from
			top = max(top, f.Fork)
			forks = append(forks, g)
			origins = append(origins, from)
		}
		next += top
	}
	var failed, skipped, ran []int
	for i, r := range runs {
		switch {
		case r.Failed():
			failed = append(failed, i)
		case r.Skipped():
			skipped = append(skipped, i)
		default:
			ran = append(ran, i)
		}
	}
	if len(failed) > 0 || len(skipped) > 0 {
		out := *runs[0]
		switch {
		case len(failed) > 0:
			f := runs[failed[0]]
			out = *f
			out.Status, out.Error = StatusFailed, fmt.Sprintf("failed in %s: %s", names[failed[0]], f.Error)
		case len(ran) > 0:
			var sk, rn []string
			for _, i := range skipped {
				sk = append(sk, names[i])
			}
			for _, i := range ran {
				rn = append(rn, names[i])
			}
			out.Status, out.Primary, out.SkipReason = StatusFailed, nil, ""
			out.SecondaryMetrics, out.Diagnostics = map[string]Metric{}, []Diagnostic{}
			out.Error = fmt.Sprintf("the benchmark skipped itself in %s (%s) and ran in %s", strings.Join(sk, ", "), strings.Join(strings.Fields(runs[skipped[0]].SkipReason), " "), strings.Join(rn, ", "))
		}
		out.Forks = forks
		out.Settings.Forks, out.Settings.WarmupForks = 0, 0
		for _, r := range runs {
			out.Settings.Forks += r.Settings.Forks
			out.Settings.WarmupForks += r.Settings.WarmupForks
		}
		return out
	}
	// Every input ran it: build it again from all the forks, by Build's code.
	r0 := runs[0]
	pr := plan.Run{Key: r0.Key, Benchmark: r0.Benchmark, Mode: r0.Mode, Settings: r0.Settings.Clone(), Spec: r0.Spec, Entry: r0.Entry}
	pr.Settings.Threads = r0.Threads
	pr.Settings.Forks, pr.Settings.WarmupForks = 0, 0
	for _, r := range runs {
		pr.Settings.Forks += r.Settings.Forks
		pr.Settings.WarmupForks += r.Settings.WarmupForks
	}
	for name, value := range r0.Params {
		pr.Params = append(pr.Params, plan.Param{Name: name, Value: value})
	}
	sort.Slice(pr.Params, func(i, j int) bool { return pr.Params[i].Name < pr.Params[j].Name })
	if g := r0.GoTest; g != nil {
		pr.GoTest = &plan.GoTest{ImportPath: g.ImportPath, Labels: g.Labels}
	}
	results := make([]protocol.ForkResult, len(forks))
	for i := range forks {
		results[i] = forkResultOf(&forks[i])
	}
	run, _ := buildRun(&pr, results, gomaxprocs)
	run.Group, run.Member = r0.Group, r0.Member // a member's row pools its own forks, its parts
	for i := range run.Forks {
		from := origins[i] // buildRun keeps the forks' order: they are numbered in order
		run.Forks[i].Pooled = &from
	}
	return run
}

// forkResultOf is the fork result a report's fork was built from, as far
// as the report keeps it: all that buildRun reads except sample mode's
// per-iteration histograms (Pool refuses sample mode).
func forkResultOf(f *Fork) protocol.ForkResult {
	out := protocol.ForkResult{
		Fork:       f.Fork,
		Warmup:     f.Warmup,
		Duet:       f.Duet,
		PID:        f.PID,
		ExitStatus: f.ExitStatus,
		Wall:       time.Duration(f.WallNs),
		Timer: protocol.TimerCalibration{
			ResolutionNs:          measured(f.Timer.ResolutionNs),
			OverheadNs:            measured(f.Timer.OverheadNs),
			BaselineNs:            plainFloats(f.Timer.BaselineNs),
			BaselineInvocationsNs: plainFloats(f.Timer.BaselineInvocationsNs),
		},
		Iterations: make([]protocol.Iteration, len(f.Iterations)),
		Metrics:    plainMap(f.Metrics),
		Profiles:   f.Profiles,
		Err:        f.Error,
	}
	for i, it := range f.Iterations {
		out.Iterations[i] = protocol.Iteration{
			Phase:       it.Phase,
			Index:       it.Index,
			Ops:         float64(it.Ops),
			TimeNs:      float64(it.TimeNs),
			Invocations: it.Invocations,
			NoTime:      it.NoTime,
		}
		if len(it.Metrics) > 0 {
			out.Iterations[i].Metrics = plainMap(it.Metrics)
		}
	}
	return out
}

// measured is the inverse of positive: 0 for a value not measured.
func measured(v Float) float64 {
	if !v.Valid() {
		return 0
	}
	return float64(v)
}

func plainFloats(xs []Float) []float64 {
	if len(xs) == 0 {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func plainMap(m map[string]Float) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = float64(v)
	}
	return out
}

// identityDifferences names what makes b another build or another
// machine than a.
func identityDifferences(a, b *Report) []string {
	var out []string
	for _, f := range []struct {
		name string
		a, b any
	}{
		{"suite", a.Suite, b.Suite},
		{"env.tool_version", a.Env.ToolVersion, b.Env.ToolVersion},
		{"env.go_version", a.Env.GoVersion, b.Env.GoVersion},
		{"env.goos", a.Env.GOOS, b.Env.GOOS},
		{"env.goarch", a.Env.GOARCH, b.Env.GOARCH},
		{"env.cpu", a.Env.CPU, b.Env.CPU},
		{"env.num_cpu", a.Env.NumCPU, b.Env.NumCPU},
		{"env.gomaxprocs", a.Env.GOMAXPROCS, b.Env.GOMAXPROCS},
		{"env.hostname", a.Env.Hostname, b.Env.Hostname},
		{"sources", a.Sources, b.Sources},
	} {
		if !reflect.DeepEqual(f.a, f.b) {
			out = append(out, fmt.Sprintf("%s %s, not %s", f.name, jsonOf(f.b), jsonOf(f.a)))
		}
	}
	return out
}

// runDifferences names what makes b another measurement than a, run by
// run: everything a fork's numbers depend on.
func runDifferences(a, b *Run) []string {
	var out []string
	for _, f := range []struct {
		name string
		a, b any
	}{
		{"benchmark", a.Benchmark, b.Benchmark},
		{"params", a.Params, b.Params},
		{"mode", a.Mode, b.Mode},
		{"threads", a.Threads, b.Threads},
		{"group", [2]string{a.Group, a.Member}, [2]string{b.Group, b.Member}},
		{"go_test", a.GoTest, b.GoTest},
	} {
		if !reflect.DeepEqual(f.a, f.b) {
			out = append(out, fmt.Sprintf("%s %s, not %s", f.name, jsonOf(f.b), jsonOf(f.a)))
		}
	}
	sa, sb := reflect.ValueOf(a.Settings), reflect.ValueOf(b.Settings)
	for _, field := range reflect.VisibleFields(sa.Type()) {
		if field.Anonymous { // the fork's settings: their fields follow
			continue
		}
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		switch name {
		case "forks", "warmup_forks", "modes", "threads", "timeout":
			// How many forks a batch ran and how long it let one take
			// change no fork's numbers; mode and threads are compared above.
			continue
		}
		x, y := sa.FieldByIndex(field.Index).Interface(), sb.FieldByIndex(field.Index).Interface()
		if !equalSetting(x, y) {
			out = append(out, fmt.Sprintf("settings.%s %s, not %s", name, jsonOf(y), jsonOf(x)))
		}
	}
	return out
}

// equalSetting compares two values of a settings field, an empty map or
// list equal to none.
func equalSetting(x, y any) bool {
	vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
	if k := vx.Kind(); (k == reflect.Map || k == reflect.Slice) && vx.Len() == 0 && vy.Len() == 0 {
		return true
	}
	return reflect.DeepEqual(x, y)
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// poolOrder is the order kind all inputs ran in, with their seed when
// they all had the same one; nil when the kinds differ.
func poolOrder(inputs []Named) *Order {
	o := inputs[0].Report.Order
	if o == nil {
		return nil
	}
	out := &Order{Kind: o.Kind, Seed: o.Seed}
	for _, in := range inputs[1:] {
		p := in.Report.Order
		if p == nil || p.Kind != o.Kind {
			return nil
		}
		if out.Seed != nil && (p.Seed == nil || *p.Seed != *out.Seed) {
			out.Seed = nil
		}
	}
	return out
}

// busiestCheck is the environment check of the input measured on the
// busiest machine: the most warnings, then the highest 1-minute load
// average; nil when no input has one.
func busiestCheck(inputs []Named) *EnvCheck {
	var best *EnvCheck
	bestWarn := -1
	for _, in := range inputs {
		c := in.Report.Env.Check
		if c == nil {
			continue
		}
		warn := 0
		for _, d := range c.Diagnostics {
			if d.Severity == diag.SeverityWarning {
				warn++
			}
		}
		if warn > bestWarn || warn == bestWarn && float64(c.LoadAverage[0]) > float64(best.LoadAverage[0]) {
			best, bestWarn = c, warn
		}
	}
	if best == nil {
		return nil
	}
	c := *best
	return &c
}
