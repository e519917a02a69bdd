package protocol

import (
	"math"
	"time"

	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// Phase names an iteration's role.
const (
	PhaseWarmup      = "warmup"
	PhaseMeasurement = "measurement"
)

// ForkResult is everything one fork of one run produced. It is plain data:
// the report is computed from a slice of these, and the run journal stores
// them as JSON.
type ForkResult struct {
	Run    int  `json:"run"`    // index into plan.Plan.Runs
	Fork   int  `json:"fork"`   // 1-based among the run's forks, warmup forks first
	Warmup bool `json:"warmup"` // a warmup fork: kept for the record, out of the statistics

	// Duet is set when the fork ran beside its partner of the other
	// build, each iteration released with the partner's (ab's duets).
	Duet bool `json:"duet,omitempty"`

	PID        int              `json:"pid"`         // 0 for an in-process fork
	ExitStatus int              `json:"exit_status"` // -1 when killed by a signal or not started
	Wall       time.Duration    `json:"wall_ns"`     // process start to exit
	Timer      TimerCalibration `json:"timer"`

	Iterations []Iteration `json:"iterations"`
	// Metrics are secondary metrics reported for the whole fork
	// (B.ReportMetric), by unit.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Profiles are the pprof files the fork wrote, by kind (cpu, heap,
	// mutex, block).
	Profiles map[string]string `json:"profiles,omitempty"`

	Err string `json:"error,omitempty"` // why the fork failed; empty on success
	// Skipped is why the benchmark skipped itself (b.Skip) in this fork;
	// empty when it ran. A skipped fork has no iterations and did not fail.
	Skipped    string `json:"skipped,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"` // the last bytes of the fork's stderr and stdout, on failure
}

// Failed reports whether the fork failed.
func (f *ForkResult) Failed() bool { return f.Err != "" }

// TimerCalibration is what a fork measured of the clock it times with.
type TimerCalibration struct {
	ResolutionNs float64 `json:"resolution_ns"` // smallest observed non-zero step
	OverheadNs   float64 `json:"overhead_ns"`   // mean cost of one clock read
	// BaselineNs is the empty loop body written `for b.Loop() {}`,
	// measured with the fork's own Loop in avgt mode before the
	// benchmark, ns/op per iteration; BaselineInvocationsNs the same
	// for `for range b.Invocations() {}`. Their fastest iteration
	// (BaselineFloorNs) is the floor under which a score is
	// indistinguishable from no work at all (dead code).
	BaselineNs            []float64 `json:"baseline_ns,omitempty"`
	BaselineInvocationsNs []float64 `json:"baseline_invocations_ns,omitempty"`
}

// BaselineFloorNs is what one empty loop iteration costs in the fork: the
// fastest iteration of its baseline in either loop form, or 0 when it
// measured none (or only values that are not positive numbers). The
// fastest, because another process can only add time to an empty loop,
// never take it away: a spell of interference that slows most of the
// baseline's iterations leaves the floor where it is. Either form,
// because the fork measures its baseline before the body runs, and so
// before it shows which form it uses: the cheaper one is the lower floor,
// and a body judged dead against it is dead against either.
func (t *TimerCalibration) BaselineFloorNs() float64 {
	floor := 0.0
	for _, xs := range [][]float64{t.BaselineNs, t.BaselineInvocationsNs} {
		for _, x := range xs {
			if x > 0 && x < math.Inf(1) && (floor == 0 || x < floor) {
				floor = x
			}
		}
	}
	return floor
}

// Iteration is one warmup or measurement iteration as measured in the
// fork. Scores are computed by the report from these raw counts so that
// all arithmetic is in one place.
type Iteration struct {
	Phase string `json:"phase"`
	Index int    `json:"index"` // 1-based within its phase
	// Ops is the number of operations (JMH semantics: invocations ×
	// ops_per_invocation ÷ batch_size); float64 because the division need
	// not be exact.
	Ops float64 `json:"ops"`
	// TimeNs is the timed duration of the iteration in nanoseconds
	// (ss: the one timed invocation; sample: the sum of the sampled batches).
	TimeNs float64 `json:"time_ns"`
	// Invocations is the number of Loop iterations that ran.
	Invocations uint64 `json:"invocations"`
	// Histogram holds sample mode's per-op sample times in nanoseconds.
	Histogram *hist.Snapshot `json:"histogram,omitempty"`
	// Metrics are per-iteration secondary metrics (profilers), by unit.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Windows are, with threads > 1, each thread's timed window as
	// [start, end] clock readings in ns: evidence that the threads ran at
	// the same time.
	Windows [][2]int64 `json:"windows,omitempty"`
	// NoTime marks an iteration of a go test benchmark that removed its
	// time per op with b.ReportMetric(0, "ns/op"), as go test allows:
	// TimeNs is 0 and no measurement, Metrics hold what it reported.
	NoTime bool `json:"no_time,omitempty"`
	// Members are, in a group's fork, each member's part of the
	// iteration (its threads combined as the iteration combines all),
	// in Run.Group's order; they hold no Windows, Metrics or Members.
	Members []Iteration `json:"members,omitempty"`
}
