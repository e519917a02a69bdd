package plan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/spec"
)

var groups = append([]Benchmark{
	{Name: "rw", Members: []string{"write", "read"}},
	{Name: "queue", Members: []string{"produce", "consume", "drain"}},
}, registry...)

// TestGroupRuns: a group's run has every member in declared order with
// the entry's group_threads (1 for one left out), Settings.Threads their
// sum, and a key that tells two entries' group_threads apart; its
// members' rows are named group:member on their own threads.
func TestGroupRuns(t *testing.T) {
	s := mustParse(t, `defaults: {modes: thrpt}
benchmarks:
  - include: '^rw$'
    group_threads: {read: 3, write: 1}
  - include: '^rw$'
    group_threads: {read: 2}
  - include: '^queue$'
  - include: '^rw$'
    group_threads: {read: 2}
`)
	p, err := Build([]*spec.Spec{s}, groups)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rw/threads=write:1,read:3:thrpt",
		"rw/threads=write:1,read:2:thrpt",
		"queue/threads=produce:1,consume:1,drain:1:thrpt",
		"rw/threads=write:1,read:2:thrpt#2",
	}
	if diff := cmp.Diff(want, keys(p)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	r := p.Runs[0]
	if diff := cmp.Diff([]protocol.Member{{Name: "write", Threads: 1}, {Name: "read", Threads: 3}}, r.Group); diff != "" {
		t.Errorf("Group (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(r.Group, r.Fork().Group); diff != "" {
		t.Errorf("the fork's Group (-run +fork):\n%s", diff)
	}
	for i, threads := range []int{4, 3, 3, 3} {
		if got := p.Runs[i].Settings.Threads; got != threads {
			t.Errorf("run %s: Settings.Threads %d, want %d", p.Runs[i].Key, got, threads)
		}
	}
	m := r.MemberRun(1)
	if m.Benchmark != "rw:read" || m.Member != "read" || m.Settings.Threads != 3 || m.Key != "rw:read/threads=write:1,read:3:thrpt" {
		t.Errorf("MemberRun(1) = %s (%s) member %q on %d threads", m.Benchmark, m.Key, m.Member, m.Settings.Threads)
	}
	if k := p.Runs[3].MemberRun(0).Key; k != "rw:write/threads=write:1,read:2:thrpt#2" {
		t.Errorf("the member of a repeated group's run: key %s, want the group's #2", k)
	}
	if r.Settings.Threads != 4 {
		t.Errorf("MemberRun changed the group's threads to %d", r.Settings.Threads)
	}
}

// TestGroupAmongBenchmarks: an entry without group_threads or threads
// may select groups and benchmarks at once; each benchmark keeps its
// threads and has no Group.
func TestGroupAmongBenchmarks(t *testing.T) {
	s := mustParse(t, "benchmarks:\n  - include: '^(rw|empty)$'\n")
	p, err := Build([]*spec.Spec{s}, groups)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"empty:avgt", "rw/threads=write:1,read:1:avgt"}, keys(p)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if p.Runs[0].Group != nil || p.Runs[0].Settings.Threads != 1 || p.Runs[1].Settings.Threads != 2 {
		t.Errorf("runs: %+v", p.Runs)
	}
}

// TestGroupErrors: what group_threads and threads cannot mean for what
// an entry selects, each error at the key at fault; want holds each
// error's beginning (spec/testdata/bad-plan/group*.golden their words).
func TestGroupErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"unknown member", "  - include: '^rw$'\n    group_threads: {write: 1, raed: 2}\n",
			[]string{`s.yaml:5:31: benchmarks[0].group_threads: group rw has no member "raed" (did you mean "read"?); its members: write, read`}},
		{"member of another group", "  - include: '^(rw|queue)$'\n    group_threads: {read: 2}\n",
			[]string{`s.yaml:5:21: benchmarks[0].group_threads: group queue has no member "read"; its members: produce, consume, drain`}},
		{"not a group", "  - include: '^(rw|sqrt.*)$'\n    group_threads: {read: 2}\n",
			[]string{`s.yaml:5:20: benchmarks[0].group_threads: sqrt.Dropped is a benchmark, not a group`}},
		{"threads", "  - include: '^rw$'\n    threads: 4\n",
			[]string{`s.yaml:5:14: benchmarks[0].threads: rw is a group, whose threads are its members' added up`}},
		{"too many", "  - include: '^rw$'\n    group_threads: {read: 4096}\n",
			[]string{`s.yaml:5:20: benchmarks[0].group_threads: group rw would run 4097 threads, its members' together; at most 4096`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build([]*spec.Spec{mustParse(t, "benchmarks:\n"+tt.body)}, groups)
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
			}
			for i := range min(len(got), len(tt.want)) {
				if strings.HasPrefix(got[i], tt.want[i]) {
					got[i] = tt.want[i] // the rest of the text: the goldens of spec/testdata/bad-plan
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	// threads from the defaults: at the defaults' key, once per entry.
	s := mustParse(t, "defaults: {threads: max}\nbenchmarks:\n  - include: '^rw$'\n  - include: '^empty$'\n")
	_, err := Build([]*spec.Spec{s}, groups)
	if err == nil || !strings.HasPrefix(err.Error(), "s.yaml:3:21: benchmarks[0].threads: rw is a group") || strings.Contains(err.Error(), "\n") {
		t.Errorf("threads in defaults: %v", err)
	}
}
