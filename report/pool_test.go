package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// poolPlan is a plan of an avgt run with fork and iteration metrics and
// a thrpt run, each with forks measured forks.
func poolPlan(forks int) *plan.Plan {
	return &plan.Plan{
		Suite: "seeds",
		Specs: []plan.SpecRef{{Path: "bench/seeds.yaml", SHA256: strings.Repeat("a", 64)}},
		Runs: []plan.Run{
			{Index: 0, Key: "sqrt.Sunk?n=8#avgt", Benchmark: "sqrt.Sunk", Params: []plan.Param{{Name: "n", Value: "8"}},
				Mode: spec.ModeAverageTime, Settings: settings("ns", forks, 0, 2, 3), Spec: "bench/seeds.yaml"},
			{Index: 1, Key: "empty#thrpt", Benchmark: "empty", Mode: spec.ModeThroughput,
				Settings: settings("us", forks, 0, 1, 2), Spec: "bench/seeds.yaml", Entry: 1},
		},
	}
}

// poolForks returns fork n of both runs of poolPlan, numbered as.
// Every fork measures something else, so that a fork lost, doubled or
// mixed up changes the statistics.
func poolForks(n, as int) []protocol.ForkResult {
	const W, M = protocol.PhaseWarmup, protocol.PhaseMeasurement
	s := float64(n)
	a := fork(0, as, false, timed(W, 1, 1e6, 40), timed(M, 1, 1e6, 10+s), timed(M, 2, 1e6, 11+s*s/3), timed(M, 3, 1e6, 10.5+s/2))
	a.Metrics = map[string]float64{"allocs/op": s}
	a.Iterations[1].Metrics = map[string]float64{"gc/op": 0.1 * s}
	a.Timer.BaselineNs = []float64{0.3, 0.31 + s/100}
	a.Timer.BaselineInvocationsNs = []float64{0.29}
	a.Timer.ResolutionNs = 20 + s
	b := fork(1, as, false, timed(W, 1, 1e6, 2), timed(M, 1, 2e6, 1+s/7), timed(M, 2, 2e6, 1.2-s/50))
	for i, f := range []*protocol.ForkResult{&a, &b} {
		f.PID, f.Wall = 1000+10*n+i, time.Duration(n)*time.Second
	}
	b.Timer.ResolutionNs = 30 + s
	return []protocol.ForkResult{a, b}
}

// roundTrip writes rep as JSON and reads it back, as merge reads it.
func roundTrip(t *testing.T, rep *Report) *Report {
	t.Helper()
	back, err := Read(bytes.NewReader(renderJSON(t, rep)))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func batch(t *testing.T, start time.Time, forks ...int) *Report {
	t.Helper()
	var results []protocol.ForkResult
	for i, n := range forks {
		results = append(results, poolForks(n, i+1)...)
	}
	_, _, env := fixture()
	env.Start, env.End = start, start.Add(10*time.Second)
	return roundTrip(t, Build(poolPlan(len(forks)), results, env))
}

// withoutOrigins is the JSON of rep's runs with the forks' pooled_from
// left out.
func withoutOrigins(t *testing.T, runs []Run) string {
	t.Helper()
	runs = append([]Run(nil), runs...)
	for i := range runs {
		runs[i].Forks = append([]Fork(nil), runs[i].Forks...)
		for j := range runs[i].Forks {
			runs[i].Forks[j].Pooled = nil
		}
	}
	b, err := json.MarshalIndent(runs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPoolEqualsOneBatch pools three reports (forks 1+2, 3, 4+5) and
// compares every run with the run Build makes of all five forks at
// once: scores, errors, variance components, percentiles, secondary
// metrics, diagnostics and the forks themselves.
func TestPoolEqualsOneBatch(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	a, b, c := batch(t, t0, 1, 2), batch(t, t0.Add(time.Minute), 3), batch(t, t0.Add(2*time.Minute), 4, 5)
	got, warnings, err := Pool([]Named{{"a.json", a}, {"b.json", b}, {"c.json", c}})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Pool: %v, warnings %q", err, warnings)
	}
	got = roundTrip(t, got)
	want := batch(t, t0, 1, 2, 3, 4, 5)
	if diff := cmp.Diff(withoutOrigins(t, want.Runs), withoutOrigins(t, got.Runs)); diff != "" {
		t.Errorf("pooled runs differ from one batch of all forks (-want +got):\n%s", diff)
	}
	if got.Runs[0].Primary.Variance.Forks != 5 || got.Runs[0].Settings.Forks != 5 {
		t.Errorf("pooled forks %d, settings.forks %d; want 5", got.Runs[0].Primary.Variance.Forks, got.Runs[0].Settings.Forks)
	}
	if got.Env.TimerResolutionNs != want.Env.TimerResolutionNs {
		t.Errorf("timer resolution %v, want %v (median over all pooled forks)", got.Env.TimerResolutionNs, want.Env.TimerResolutionNs)
	}
	if !got.Env.Start.Equal(t0) || !got.Env.End.Equal(c.Env.End) {
		t.Errorf("env %v – %v, want the first start and the last end", got.Env.Start, got.Env.End)
	}
	var origins []PooledFrom
	for _, f := range got.Runs[1].Forks {
		origins = append(origins, *f.Pooled)
	}
	wantOrigins := []PooledFrom{
		{"a.json", a.Env.Start, 1}, {"a.json", a.Env.Start, 2}, {"b.json", b.Env.Start, 1},
		{"c.json", c.Env.Start, 1}, {"c.json", c.Env.Start, 2},
	}
	if diff := cmp.Diff(wantOrigins, origins); diff != "" {
		t.Errorf("pooled_from (-want +got):\n%s", diff)
	}
	// Pooling a pool keeps where each fork was measured.
	again, _, err := Pool([]Named{{"ab.json", got}, {"d.json", batch(t, t0.Add(3*time.Minute), 6)}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(again.Runs[0].Forks); n != 6 || *again.Runs[0].Forks[4].Pooled != wantOrigins[4] || again.Runs[0].Forks[5].Pooled.Report != "d.json" {
		t.Errorf("pool of a pool: %d forks, fork 5 from %+v, fork 6 from %+v", n, again.Runs[0].Forks[4].Pooled, again.Runs[0].Forks[5].Pooled)
	}
}

// TestPoolRefusesOtherMeasurements changes one thing in the second of
// two reports at a time: each is refused, naming both files, the run
// and the field.
func TestPoolRefusesOtherMeasurements(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, field string
		run         bool // the problem names the run
		change      func(r *Report)
	}{
		{"mode", "mode", true, func(r *Report) { r.Runs[0].Mode = spec.ModeSingleShot }},
		{"iterations", "settings.measurement", true, func(r *Report) { r.Runs[0].Settings.Measurement.Iterations = 5 }},
		{"time", "settings.measurement", true, func(r *Report) { r.Runs[0].Settings.Measurement.Time = 2 * time.Second }},
		{"batch size", "settings.warmup", true, func(r *Report) { r.Runs[0].Settings.Warmup.BatchSize = 10 }},
		{"threads", "threads", true, func(r *Report) { r.Runs[0].Threads = 2 }},
		{"params", "params", true, func(r *Report) { r.Runs[0].Params["n"] = "9" }},
		{"time unit", "settings.time_unit", true, func(r *Report) { r.Runs[0].Settings.TimeUnit = "us" }},
		{"env", "settings.env", true, func(r *Report) { r.Runs[0].Settings.Env = map[string]string{"GOGC": "off"} }},
		{"ops per invocation", "settings.ops_per_invocation", true, func(r *Report) { r.Runs[0].Settings.OpsPerInvocation = 4 }},
		{"precision", "settings.precision", true, func(r *Report) { r.Runs[0].Settings.Precision = spec.Precision{Error: 0.01, MaxForks: 9} }},
		{"sample", "mode sample", true, func(r *Report) { r.Runs[0].Mode = spec.ModeSampleTime }},
		{"go version", "env.go_version", false, func(r *Report) { r.Env.GoVersion = "go1.27" }},
		{"host", "env.hostname", false, func(r *Report) { r.Env.Hostname = "other" }},
		{"cpu", "env.cpu", false, func(r *Report) { r.Env.CPU = "Other CPU" }},
		{"suite", "suite", false, func(r *Report) { r.Suite = "other" }},
		{"sources", "sources", false, func(r *Report) { r.Sources = []Source{{Module: "example.com/m", Revision: "abc"}} }},
		{"shard", "shard 1/2", false, func(r *Report) { r.Shard = &plan.ShardInfo{Index: 1, Count: 2} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := batch(t, t0, 1), batch(t, t0.Add(time.Minute), 2)
			c.change(b)
			got, _, err := Pool([]Named{{"a.json", a}, {"b.json", b}})
			var pe *PoolError
			if !errors.As(err, &pe) || got != nil {
				t.Fatalf("Pool = %v, %v; want a *PoolError and no report", got, err)
			}
			msg := err.Error()
			for _, want := range []string{"b.json", c.field} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not name %q", msg, want)
				}
			}
			if c.run && !strings.Contains(msg, `"sqrt.Sunk?n=8#avgt"`) {
				t.Errorf("error %q does not name the run", msg)
			}
		})
	}
}

// TestPoolFailedRun: a run failed in one input is failed in the pool,
// with the input and its error, and keeps every fork; the other run is
// pooled.
func TestPoolFailedRun(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	a := batch(t, t0, 1)
	forks := append(poolForks(2, 1), poolForks(3, 2)...)
	forks[2].Err, forks[2].ExitStatus = "exit status 2", 2
	_, _, env := fixture()
	b := roundTrip(t, Build(poolPlan(2), forks, env))
	got, _, err := Pool([]Named{{"a.json", a}, {"b.json", b}})
	if err != nil {
		t.Fatal(err)
	}
	run := got.Runs[0]
	if !run.Failed() || run.Primary != nil || !strings.Contains(run.Error, "failed in b.json: fork 2: exit status 2") || len(run.Forks) != 3 {
		t.Errorf("run %q: status %s, error %q, primary %v, %d forks; want failed in b.json, no score, 3 forks", run.Key, run.Status, run.Error, run.Primary, len(run.Forks))
	}
	if other := got.Runs[1]; other.Status != StatusOK || other.Primary.Variance.Forks != 3 {
		t.Errorf("run %q: status %s; want ok with 3 forks", other.Key, other.Status)
	}
}

// TestPoolPartialRun: a run that one input lacks is pooled from the
// others, with a warning naming the input that lacks it.
func TestPoolPartialRun(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	a, b := batch(t, t0, 1), batch(t, t0.Add(time.Minute), 2)
	b.Runs = b.Runs[:1]
	got, warnings, err := Pool([]Named{{"a.json", a}, {"b.json", b}})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `"empty#thrpt" is pooled from a.json only: b.json lacks it`) {
		t.Errorf("warnings %q", warnings)
	}
	if n := len(got.Runs[1].Forks); n != 1 || len(got.Runs[0].Forks) != 2 {
		t.Errorf("forks %d and %d, want 2 and 1", len(got.Runs[0].Forks), n)
	}
}

// TestPoolSkippedRun: a run skipped in every input is skipped in the
// pool; skipped in one input and run in another, it is failed, naming
// both, as Build fails a run skipped in some of one batch's forks.
func TestPoolSkippedRun(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	skippedBatch := func(start time.Time) *Report {
		forks := poolForks(1, 1)
		forks[0].Iterations, forks[0].Skipped = nil, "no GPU"
		_, _, env := fixture()
		env.Start = start
		return roundTrip(t, Build(poolPlan(1), forks, env))
	}
	s1, s2 := skippedBatch(t0), skippedBatch(t0.Add(time.Minute))
	if s1.Runs[0].Status != StatusSkipped {
		t.Fatalf("fixture: status %s, want skipped", s1.Runs[0].Status)
	}
	got, _, err := Pool([]Named{{"s1.json", s1}, {"s2.json", s2}})
	if err != nil {
		t.Fatal(err)
	}
	if run := got.Runs[0]; run.Status != StatusSkipped || run.SkipReason != "no GPU" || len(run.Forks) != 2 || run.Settings.Forks != 2 {
		t.Errorf("skipped in both: status %s, reason %q, %d forks, settings.forks %d; want skipped, no GPU, 2", run.Status, run.SkipReason, len(run.Forks), run.Settings.Forks)
	}
	got, _, err = Pool([]Named{{"s1.json", s1}, {"a.json", batch(t, t0.Add(2*time.Minute), 2)}})
	if err != nil {
		t.Fatal(err)
	}
	if run := got.Runs[0]; !run.Failed() || run.Error != "the benchmark skipped itself in s1.json (no GPU) and ran in a.json" || run.Primary != nil {
		t.Errorf("skipped in one: status %s, error %q; want failed, naming both", run.Status, run.Error)
	}
}
