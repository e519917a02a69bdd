package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report/diag"
	"github.com/benchspec/benchspec/report/stats"
	"github.com/benchspec/benchspec/spec"
)

// SchemaVersion is the version of the JSON report this package writes and
// reads. It changes only when a field changes meaning or disappears; new
// fields are added without a bump, and Read ignores fields it does not know.
//
// Version 2 changed what score_error means: version 1's was JMH's error
// over all iterations (now iteration_error), version 2's counts forks
// (Metric.ScoreError). Read still reads version 1 and upgrades it from
// its raw data, which both versions hold.
const SchemaVersion = 2

// Run statuses.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
	// StatusSkipped is a run whose benchmark skipped itself (b.Skip) in
	// every measured fork: not a failure, as under go test.
	StatusSkipped = "skipped"
)

// Report is the result of a batch: the environment, and one Run per
// planned run that started. It is plain data; every renderer reads it.
type Report struct {
	SchemaVersion int `json:"schema_version"`
	// Complete is false when some planned runs did not run, or did not run
	// all their forks (the batch was interrupted).
	Complete bool           `json:"complete"`
	Suite    string         `json:"suite"`
	Env      Env            `json:"env"`
	Specs    []plan.SpecRef `json:"specs"`
	// Order is the order the forks ran in; nil in reports older than it.
	Order *Order `json:"order,omitempty"`
	// Shard is set when the report is one part of a sharded plan: Merge
	// proves with it that the parts of one plan are all there.
	Shard *plan.ShardInfo `json:"shard,omitempty"`
	Runs  []Run           `json:"runs"`
	// Label is the batch's run --label, such as a CI build number; ""
	// when none was given.
	Label string `json:"label,omitempty"`
	// Sources are the code the batch measured (Source): the suite
	// binary's module when registered benchmarks ran, then the module of
	// each `package:` entry's package. Nil when none is known.
	Sources []Source `json:"sources,omitempty"`
	// Builds are the spec builds the batch measured (BuildInfo), in plan
	// order; nil when its specs have none.
	Builds []BuildInfo `json:"builds,omitempty"`
	// Complexity are the complexity fits of the runs (Fits), which Write
	// computes; what Read finds here is not used.
	Complexity []Complexity `json:"complexity,omitempty"`
}

// Order is the order a batch ran its forks in (executor.Order). It does
// not change the numbers' attribution: every order gives the same runs.
type Order struct {
	Kind string `json:"kind"` // declared, interleaved or random
	// Seed is the random order's seed; nil for the other orders.
	Seed *uint64 `json:"seed,omitempty"`
}

// Env is where the numbers were measured.
type Env struct {
	ToolVersion string `json:"tool_version"`
	GoVersion   string `json:"go_version"`
	GOOS        string `json:"goos"`
	GOARCH      string `json:"goarch"`
	CPU         string `json:"cpu"` // model name, or GOARCH when unknown
	NumCPU      int    `json:"num_cpu"`
	GOMAXPROCS  int    `json:"gomaxprocs"` // of the parent process
	Hostname    string `json:"hostname"`
	// TimerResolutionNs and TimerOverheadNs are the medians over the forks
	// that calibrated their clock; null when none did.
	TimerResolutionNs Float     `json:"timer_resolution_ns"`
	TimerOverheadNs   Float     `json:"timer_overhead_ns"`
	Start             time.Time `json:"start"`
	End               time.Time `json:"end"`
	// Check is the environment check made at the start of the batch; nil
	// when none was made.
	Check *EnvCheck `json:"check,omitempty"`
}

// Run is one benchmark × params × mode and what its forks measured.
type Run struct {
	Key       string            `json:"key"`
	Benchmark string            `json:"benchmark"`
	Params    map[string]string `json:"params"`
	Mode      spec.Mode         `json:"mode"`
	// Threads is the number of goroutines running the body; `threads: max`
	// is resolved to the GOMAXPROCS of the forks' environment.
	Threads int `json:"threads"`
	// Settings are the plan's settings of the run, narrowed to what it
	// ran: Modes is [Mode], Threads is Threads, and Diagnostics holds the
	// thresholds its diagnostics used, defaults filled in. In JSON the
	// run's mode and threads stand beside the settings rather than in
	// them (see MarshalJSON).
	Settings spec.Settings `json:"settings"`
	// Group is the group's name on a group's row and on its members'
	// rows (benchspec.RegisterGroup); Member is the member's name on a
	// member's row, whose Benchmark is "group:member" (JMH's naming) and
	// whose forks are the group's, each holding the member's part.
	Group  string `json:"group,omitempty"`
	Member string `json:"member,omitempty"`

	Spec  string `json:"spec"`  // path of the spec that selected the run
	Entry int    `json:"entry"` // 0-based index of the entry in that spec

	Status string `json:"status"` // StatusOK, StatusFailed or StatusSkipped
	Error  string `json:"error"`  // the first failure, "" when ok or skipped
	// SkipReason is why a skipped run's benchmark skipped itself, as go
	// test prints it; "" unless skipped.
	SkipReason string `json:"skip_reason,omitempty"`
	StderrTail string `json:"stderr_tail"` // of the first failed fork

	// GoTest is set for a package benchmark (a `package:` entry): its
	// package and the header its test binary prints.
	GoTest *GoTestRef `json:"go_test,omitempty"`

	// Primary is nil when the run failed.
	Primary          *Metric           `json:"primary_metric"`
	SecondaryMetrics map[string]Metric `json:"secondary_metrics"`
	Diagnostics      []Diagnostic      `json:"diagnostics"`
	// Precision is how a run with a precision target ended (why it
	// stopped, what it cost); nil for a run without one.
	Precision *Precision `json:"precision,omitempty"`
	Forks     []Fork     `json:"forks"`
}

// GoTestRef is the package of a package benchmark.
type GoTestRef struct {
	ImportPath string `json:"import_path"`
	// Labels are the configuration lines the test binary prints before
	// its results (goos, goarch, pkg, cpu), as printed.
	Labels [][2]string `json:"labels"`
}

// MarshalJSON writes the run with its mode and threads once, as "mode"
// and "threads", and its settings without them.
func (r Run) MarshalJSON() ([]byte, error) {
	type plain Run // without the methods
	p := plain(r)
	p.Settings.Modes, p.Settings.Threads = nil, 0
	return marshalNoEscape(p)
}

// UnmarshalJSON reads what MarshalJSON writes, restoring the settings'
// Modes and Threads from the run's mode and threads.
func (r *Run) UnmarshalJSON(data []byte) error {
	type plain Run
	if err := json.Unmarshal(data, (*plain)(r)); err != nil {
		return err
	}
	r.Settings.Modes, r.Settings.Threads = []spec.Mode{r.Mode}, r.Threads
	return nil
}

// marshalNoEscape is json.Marshal without HTML escaping: the encoder that
// calls a MarshalJSON escapes, or not ("<failure>" stays readable in the
// JSON renderer).
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Failed reports whether the run failed.
func (r *Run) Failed() bool { return r.Status == StatusFailed }

// Skipped reports whether the run's benchmark skipped itself.
func (r *Run) Skipped() bool { return r.Status == StatusSkipped }

// NoScore reports whether the run has no primary score to show: it
// failed or skipped.
func (r *Run) NoScore() bool { return r.Status != StatusOK || r.Primary == nil }

// NoTime reports whether the run succeeded without a time per op: a go
// test benchmark that removed it (b.ReportMetric(0, "ns/op")) and has
// its own metrics only, in SecondaryMetrics.
func (r *Run) NoTime() bool { return r.Status == StatusOK && r.Primary == nil }

// Outcome is in one line, for notes, why a run has no score: the error,
// "skipped: " and the reason, or the removed time per op.
func (r *Run) Outcome() string {
	text := r.Error
	switch {
	case r.Skipped():
		text = "skipped: " + r.SkipReason
	case r.NoTime():
		text = `no time per op: the benchmark removed it (b.ReportMetric(0, "ns/op")); its own metrics are its results`
	}
	return strings.Join(strings.Fields(text), " ")
}

// DisplayName is the run's name in tables: its benchmark, with
// "/threads=N" when more than one goroutine ran it (a group's and its
// members' rows: every member's, "/threads=write:1,read:3"), followed by
// " #2", " #3", … when the plan had already selected the same benchmark,
// params and mode with the same settings from an earlier entry or spec
// (the key's "#N" suffix). Spec and Entry say where each one came from.
func (r *Run) DisplayName() string {
	name := r.Benchmark
	if g := r.GroupThreads(); g != "" {
		name += "/threads=" + g
	} else if r.Threads > 1 {
		name += "/threads=" + strconv.Itoa(r.Threads)
	}
	if i := strings.LastIndexByte(r.Key, '#'); i > 0 && i > strings.LastIndexByte(r.Key, ':') {
		if n, err := strconv.Atoi(r.Key[i+1:]); err == nil && n > 1 {
			return name + " #" + r.Key[i+1:]
		}
	}
	return name
}

// GroupThreads is, on a group's row and its members', every member's
// threads as the key gives them ("write:1,read:3"): two runs of one
// group on other threads differ in it, where their threads may not.
// "" for any other row.
func (r *Run) GroupThreads() string {
	i := strings.LastIndex(r.Key, "/threads=")
	if i < 0 {
		return ""
	}
	rest := r.Key[i+len("/threads="):]
	if j := strings.LastIndexByte(rest, ':'); j > 0 {
		rest = rest[:j] // the mode, and a repeat's #N
	}
	if !strings.Contains(rest, ":") {
		return "" // a plain run's "4" or "max"
	}
	return rest
}

// Metric is a score with its error and the data it came from.
type Metric struct {
	Score Float `json:"score"`
	// ScoreError is the 99.9 % half-width with forks as the unit:
	// t(0.9995, forks−1) times the standard deviation of the fork means
	// over √forks (package doc). It is null with fewer than 2 forks: one
	// process says nothing about the next.
	ScoreError Float `json:"score_error"`
	// ScoreConfidence is [Score-ScoreError, Score+ScoreError].
	ScoreConfidence [2]Float `json:"score_confidence"`
	// IterationError is JMH's error, which treats every value of every
	// fork as independent: t(0.9995, Count−1)·Stdev/√Count; null when
	// Count ≤ 1. It is too small whenever forks differ; the JMH renderer
	// writes it, because that is what JMH's scoreError means.
	IterationError Float `json:"iteration_error"`
	// Variance is the fork-level model the error comes from.
	Variance    *Variance   `json:"variance"`
	ScoreUnit   string      `json:"score_unit"`
	Count       int         `json:"count"`
	Stdev       Float       `json:"stdev"` // sample standard deviation (n-1)
	Min         Float       `json:"min"`
	Max         Float       `json:"max"`
	Percentiles Percentiles `json:"percentiles"`
	// RawData holds, per measured fork, the values the metric was computed
	// from (iteration scores; one value per fork for fork-level metrics).
	RawData [][]Float `json:"raw_data"`
	// Histogram is the merged sample distribution (sample mode's primary
	// metric only).
	Histogram *Histogram `json:"histogram,omitempty"`
}

// Variance is the two-level model of a metric's values (iterations
// nested in forks): its variance components, and how many forks a stated
// precision would take. Standard deviations are in the metric's unit;
// numbers that cannot be estimated are null.
type Variance struct {
	// Forks is the number of measured forks with values: the number of
	// independent samples the error rests on.
	Forks int `json:"forks"`
	// ForkMeans are the means of those forks, in fork order.
	ForkMeans []Float `json:"fork_means"`
	// WithinForkStdev is √σ²w: how far one value strays from its fork's
	// mean. Null when no fork has two values.
	WithinForkStdev Float `json:"within_fork_stdev"`
	// BetweenForkStdev is √σ²b: how far a fork's true mean strays from
	// the score, net of the within-fork noise. Null with fewer than 2
	// forks or without within-fork values.
	BetweenForkStdev Float `json:"between_fork_stdev"`
	// BetweenForkShare is σ²b / (σ²b + σ²w), the share of a value's
	// variance that comes from the process it ran in.
	BetweenForkShare Float `json:"between_fork_share"`
	// TargetError is the relative 99.9 % half-width ForksNeeded aims at:
	// the spec's precision error, else DefaultTargetError.
	TargetError Float `json:"target_error"`
	// ForksNeeded is the number of forks, each as long as these, whose
	// error would be within TargetError of the score, estimated from the
	// spread of these forks' means; null with fewer than 2 forks or beyond
	// MaxForks.
	ForksNeeded *int `json:"forks_needed"`
}

// Percentiles are a metric's percentiles keyed by percent, like JMH's
// scorePercentiles: "0.0", "50.0", "90.0", "95.0", "99.0", "99.9",
// "99.99", "100.0". JSON lists them in increasing order.
type Percentiles map[string]Float

// MarshalJSON writes p as an object with its keys in numeric order.
func (p Percentiles) MarshalJSON() ([]byte, error) {
	keys := sortedKeys(p)
	sort.SliceStable(keys, func(i, j int) bool { return percentKey(keys[i]) < percentKey(keys[j]) })
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		name, _ := json.Marshal(k)
		value, _ := p[k].MarshalJSON()
		out = append(append(append(out, name...), ':'), value...)
	}
	return append(out, '}'), nil
}

// percentKey is the number a percentile key stands for; keys that are no
// number sort last.
func percentKey(k string) float64 {
	if v, err := strconv.ParseFloat(k, 64); err == nil {
		return v
	}
	return math.Inf(1)
}

// Histogram is a sample-mode distribution, in the metric's unit. Count,
// Sum, Min and Max are exact; bin values are within hist.Alpha.
type Histogram struct {
	Count uint64 `json:"count"`
	Sum   Float  `json:"sum"`
	Min   Float  `json:"min"`
	Max   Float  `json:"max"`
	Bins  []Bin  `json:"bins"` // increasing values
}

// Diagnostic is a reason to distrust a number, returned as data: a
// stable code, a severity, a message that names the remedy, and the
// numbers behind it. See package report/diag for the codes and their
// thresholds.
type Diagnostic = diag.Diagnostic

// Fork is one process of a run, as measured.
type Fork struct {
	Fork   int  `json:"fork"` // 1-based, warmup forks first
	Warmup bool `json:"warmup"`
	// Duet: the fork ran beside its partner of the other build, their
	// iterations in step (ab's duets); its values pair iteration by
	// iteration with the partner's.
	Duet       bool             `json:"duet,omitempty"`
	PID        int              `json:"pid"`         // forks: 0: the batch's shared host process
	ExitStatus int              `json:"exit_status"` // -1 when killed or not started
	WallNs     int64            `json:"wall_ns"`
	Timer      Timer            `json:"timer"`
	Iterations []Iteration      `json:"iterations"`
	Metrics    map[string]Float `json:"metrics"` // B.ReportMetric, by unit
	// Profiles are the pprof files the fork wrote, by kind; omitted when
	// none were asked for.
	Profiles map[string]string `json:"profiles,omitempty"`
	Error    string            `json:"error"` // "" on success
	// Pooled is, in a run that Pool made from several reports (`merge
	// --pool`), where the fork was measured; nil in a batch's own report.
	Pooled *PooledFrom `json:"pooled_from,omitempty"`
}

// Timer is a fork's clock calibration; null where not measured.
type Timer struct {
	ResolutionNs Float `json:"resolution_ns"`
	OverheadNs   Float `json:"overhead_ns"`
	// BaselineNs is the empty loop `for b.Loop() {}` measured with the
	// same Loop before the benchmark, ns per call per iteration, and
	// BaselineInvocationsNs the same for `for range b.Invocations() {}`
	// (protocol.TimerCalibration); omitted when not measured.
	BaselineNs            []Float `json:"baseline_ns,omitempty"`
	BaselineInvocationsNs []Float `json:"baseline_invocations_ns,omitempty"`
}

// Iteration is one warmup or measurement iteration of a fork.
type Iteration struct {
	Phase       string `json:"phase"`
	Index       int    `json:"index"`
	Ops         Float  `json:"ops"`
	TimeNs      Float  `json:"time_ns"`
	Invocations uint64 `json:"invocations"`
	Score       Float  `json:"score"`             // IterationScore, in the run's unit
	Samples     uint64 `json:"samples,omitempty"` // sample mode
	// NoTime marks an iteration without a time per op: the go test
	// benchmark removed it (b.ReportMetric(0, "ns/op")); Score is null.
	NoTime  bool             `json:"no_time,omitempty"`
	Metrics map[string]Float `json:"metrics,omitempty"`
}

// checkRun refuses a run that no Build writes: an unknown status, or an
// ok run whose primary metric lacks a statistic that its values
// determine. JSON has no NaN or infinity (a number out of float64's range
// fails to decode), so a statistic that is not finite arrives as null:
// Build writes null for one that does not exist — the error of fewer
// than 2 forks, the stdev of one value — and for every statistic of a
// metric whose arithmetic went wrong, which an ok run cannot have. Failed
// and skipped runs, and an ok run without a primary metric (no time per
// op), may carry null anywhere.
func checkRun(r *Run) error {
	switch r.Status {
	case StatusOK, StatusFailed, StatusSkipped:
	default:
		return fmt.Errorf("status %q, want %q, %q or %q", r.Status, StatusOK, StatusFailed, StatusSkipped)
	}
	m := r.Primary
	if r.Status != StatusOK || m == nil {
		return nil
	}
	finite := func(field string, v Float) error {
		if !v.Valid() {
			return fmt.Errorf("primary_metric.%s is null in a run whose status is ok: an ok run's statistics are finite numbers (only failed and skipped runs may carry null)", field)
		}
		return nil
	}
	if m.Count < 1 {
		return fmt.Errorf("primary_metric.count is %d in a run whose status is ok: an ok run has at least one value", m.Count)
	}
	forks := 0
	for f, fork := range m.RawData {
		n := 0
		for i, v := range fork {
			if err := finite(fmt.Sprintf("raw_data[%d][%d]", f, i), v); err != nil {
				return err
			}
			n++
		}
		if n > 0 {
			forks++
		}
	}
	checks := []struct {
		field string
		v     Float
		need  bool
	}{
		{"score", m.Score, true},
		{"min", m.Min, true},
		{"max", m.Max, true},
		{"stdev", m.Stdev, m.Count >= 2},
		{"iteration_error", m.IterationError, m.Count >= 2},
		{"score_error", m.ScoreError, forks >= 2},
		{"score_confidence[0]", m.ScoreConfidence[0], forks >= 2},
		{"score_confidence[1]", m.ScoreConfidence[1], forks >= 2},
	}
	for _, c := range checks {
		if c.need {
			if err := finite(c.field, c.v); err != nil {
				return err
			}
		}
	}
	for _, k := range sortedKeys(m.Percentiles) {
		if err := finite(fmt.Sprintf("percentiles[%q]", k), m.Percentiles[k]); err != nil {
			return err
		}
	}
	return nil
}

// upgradeV1 turns a version 1 report into a version 2 one: its
// score_error is JMH's iteration error, and the fork-level error and
// variance components are computed from the raw data.
func upgradeV1(rep *Report) {
	rep.SchemaVersion = SchemaVersion
	up := func(m *Metric) {
		m.IterationError = m.ScoreError
		m.model(stats.Of(rawFloats(m.RawData)), DefaultTargetError)
	}
	for i := range rep.Runs {
		run := &rep.Runs[i]
		if run.Primary != nil {
			up(run.Primary)
		}
		for name, m := range run.SecondaryMetrics {
			up(&m)
			run.SecondaryMetrics[name] = m
		}
	}
}
