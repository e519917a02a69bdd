package report

import (
	"fmt"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// memberRows are the rows of a group's members (JMH's "rw:write"), one
// per member of r in declared order, each built as any run is from the
// group's forks with every iteration replaced by the member's part of it.
// A fork's metrics and profiles are the whole group's: they stay on the
// group's row.
func memberRows(r *plan.Run, forks []protocol.ForkResult, gomaxprocs int) []Run {
	rows := make([]Run, len(r.Group))
	for i := range r.Group {
		m := r.MemberRun(i)
		rows[i], _ = buildRun(&m, memberForks(r, i, forks), gomaxprocs)
		rows[i].Group, rows[i].Member = r.Benchmark, m.Member
	}
	return rows
}

// memberForks are the group's forks as member i measured them. A fork
// with an iteration that lacks the members' parts (a fork or journal that
// breaks the protocol) is failed, so that the member's row says why
// instead of scoring nothing as something.
func memberForks(r *plan.Run, i int, forks []protocol.ForkResult) []protocol.ForkResult {
	out := make([]protocol.ForkResult, len(forks))
	for k, f := range forks {
		f.Metrics, f.Profiles = nil, nil
		its := make([]protocol.Iteration, 0, len(f.Iterations))
		for _, it := range f.Iterations {
			if len(it.Members) != len(r.Group) {
				if f.Err == "" {
					f.Err = fmt.Sprintf("%s iteration %d holds %d members' parts, but group %s has %d members (%s): a group's fork reports every member's part of each iteration",
						it.Phase, it.Index, len(it.Members), r.Benchmark, len(r.Group), strings.Join(protocol.MemberNames(r.Group), ", "))
				}
				its = nil
				break
			}
			m := it.Members[i]
			m.Phase, m.Index = it.Phase, it.Index
			m.Windows, m.Metrics, m.Members = nil, nil, nil
			its = append(its, m)
		}
		f.Iterations = its
		out[k] = f
	}
	return out
}

// MemberKey is the key of member's row of the group whose row r is, as
// plan.Run.MemberRun names it: "rw:write/…" for "rw/…".
func (r *Run) MemberKey(member string) string {
	return r.Benchmark + ":" + member + strings.TrimPrefix(r.Key, r.Benchmark)
}

// PlanKey is the key of the plan run the row was built from: the row's
// own key, or on a group member's row its group's, which plan.Run.MemberRun
// names the member's row after ("rw:write/…" for "rw/…"). A shard's
// PlannedRuns and ab's plan hold plan keys.
func (r *Run) PlanKey() string {
	if r.Member == "" || r.Benchmark != r.Group+":"+r.Member || !strings.HasPrefix(r.Key, r.Benchmark) {
		return r.Key
	}
	return r.Group + r.Key[len(r.Benchmark):]
}
