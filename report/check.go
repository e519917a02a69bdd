package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
)

// checkReport checks a report read back against its own raw data and
// settings, beyond what checkRun does for each run: every number a
// reader compares must be what the report's raw counts make it, and a
// run must say one thing about itself. A report that contradicts itself
// was edited or forged, and is refused, naming the run: compare,
// history and merge would otherwise weigh it like a measured one.
//
//   - One run per key.
//   - The mode is one benchspec has, and the one the run's key names.
//   - A group's row is named as its group, a member's row group:member,
//     and a group's row comes with a row for each of its members.
//   - In an ok run, no iteration has negative operations or time (an ok
//     run's score is then never negative), each measurement iteration's
//     score is what its operations and time make in the run's mode and
//     unit (IterationScore; sample mode's, from its samples, is taken as
//     stored), raw_data holds exactly the measured forks' iteration
//     scores, and the score, min and max are those of raw_data (sample
//     mode's score is the samples' mean: not recomputed). A run without
//     forks is checked against its raw_data alone.
func checkReport(rep *Report) error {
	seen := make(map[string]int, len(rep.Runs))
	for i := range rep.Runs {
		r := &rep.Runs[i]
		if j, dup := seen[r.Key]; dup {
			return fmt.Errorf("report: runs[%d] and runs[%d] have the same key %q: a report holds each run once", j, i, r.Key)
		}
		seen[r.Key] = i
		if err := checkConsistent(r); err != nil {
			return fmt.Errorf("report: runs[%d] (%s): %w", i, r.Key, err)
		}
	}
	for i := range rep.Runs {
		r := &rep.Runs[i]
		if r.Group == "" || r.Member != "" {
			continue
		}
		if r.GroupThreads() == "" {
			return fmt.Errorf("report: runs[%d] (%s): group %q, but its key gives no member's threads (/threads=NAME:N,…)", i, r.Key, r.Group)
		}
		for _, m := range strings.Split(r.GroupThreads(), ",") {
			name, _, _ := strings.Cut(m, ":")
			if _, ok := seen[r.MemberKey(name)]; !ok {
				return fmt.Errorf("report: runs[%d] (%s): group %q has no row of its member %q: Build gives a group's row its members' rows", i, r.Key, r.Group, name)
			}
		}
	}
	return nil
}

// relClose reports whether a and b agree to what float64 arithmetic in
// another order (a sum, a mean) can change.
func relClose(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

func checkConsistent(r *Run) error {
	if !r.Mode.Valid() {
		return fmt.Errorf("mode %q is not a mode benchspec has (thrpt, avgt, sample, ss)", r.Mode)
	}
	// The key is benchmark[/param=value…][/threads=N]:mode[#N].
	if i := strings.LastIndexByte(r.Key, ':'); i >= 0 {
		mode, _, _ := strings.Cut(r.Key[i+1:], "#")
		if mode != string(r.Mode) {
			return fmt.Errorf("mode %q, but the run's key names mode %q", r.Mode, mode)
		}
	}
	switch {
	case r.Member != "" && (r.Group == "" || r.Benchmark != r.Group+":"+r.Member):
		return fmt.Errorf("member %q of group %q, but benchmark %q: a member's row is named group:member", r.Member, r.Group, r.Benchmark)
	case r.Member == "" && r.Group != "" && r.Benchmark != r.Group:
		return fmt.Errorf("group %q, but benchmark %q: a group's row is named as the group", r.Group, r.Benchmark)
	}
	m := r.Primary
	if r.Status != StatusOK || m == nil {
		return nil
	}
	unit := UnitNs(r.Settings.TimeUnit)
	var raw [][]Float
	for _, f := range r.Forks {
		if f.Warmup {
			continue
		}
		var scores []Float
		for j, it := range f.Iterations {
			where := fmt.Sprintf("fork %d, %s iteration %d", f.Fork, it.Phase, it.Index)
			if it.Ops < 0 || it.TimeNs < 0 {
				return fmt.Errorf("%s: negative operations or time (ops %v, time %v ns) in a run whose status is ok", where, float64(it.Ops), float64(it.TimeNs))
			}
			if it.Phase != protocol.PhaseMeasurement {
				continue
			}
			if !r.Mode.Samples() && !it.NoTime {
				pi := protocol.Iteration{Ops: float64(it.Ops), TimeNs: float64(it.TimeNs)}
				want := score(r.Mode, unit, &pi)
				if !it.Score.Valid() || !relClose(float64(it.Score), want) {
					return fmt.Errorf("%s: score %v, but its %v operations in %v ns make %v %s", where, float64(it.Score), float64(it.Ops), float64(it.TimeNs), want, m.ScoreUnit)
				}
			}
			scores = append(scores, f.Iterations[j].Score)
		}
		raw = append(raw, scores)
	}
	if len(r.Forks) == 0 {
		// Only the statistics to check against raw_data (a report cut
		// down by hand, as tests write them): raw stands for itself.
		raw = m.RawData
	}
	if len(raw) != len(m.RawData) {
		return fmt.Errorf("primary_metric.raw_data has %d forks, but the run has %d measured forks", len(m.RawData), len(raw))
	}
	var sum float64
	n := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range raw {
		if len(raw[i]) != len(m.RawData[i]) {
			return fmt.Errorf("primary_metric.raw_data[%d] has %d values, but its fork has %d measurement iterations", i, len(m.RawData[i]), len(raw[i]))
		}
		for j, v := range m.RawData[i] {
			if !relClose(float64(v), float64(raw[i][j])) {
				return fmt.Errorf("primary_metric.raw_data[%d][%d] is %v, but that iteration's score is %v", i, j, float64(v), float64(raw[i][j]))
			}
			sum += float64(v)
			n++
			lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
		}
	}
	if r.Mode.Samples() {
		return nil // count, score, min and max are the samples'
	}
	if n != m.Count {
		return fmt.Errorf("primary_metric.count is %d, but raw_data holds %d values", m.Count, n)
	}
	if mean := sum / float64(n); !relClose(float64(m.Score), mean) {
		return fmt.Errorf("score %v, but its raw data's mean is %v", float64(m.Score), mean)
	}
	if !relClose(float64(m.Min), lo) || !relClose(float64(m.Max), hi) {
		return fmt.Errorf("min %v and max %v, but its raw data ranges from %v to %v", float64(m.Min), float64(m.Max), lo, hi)
	}
	return nil
}
