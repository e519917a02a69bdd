package report_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
	"github.com/benchspec/benchspec/schemas"
)

type row struct {
	Key, PlanKey, Benchmark, Group, Member string
	Threads                                int
	Status                                 string
}

func rows(rep *report.Report) []row {
	var out []row
	for _, r := range rep.Runs {
		out = append(out, row{r.Key, r.PlanKey(), r.Benchmark, r.Group, r.Member, r.Threads, r.Status})
	}
	return out
}

const rwKey = "rw/threads=write:1,read:3:thrpt"

var groupRows = []row{
	{rwKey, rwKey, "rw", "rw", "", 4, report.StatusOK},
	{"rw:write/threads=write:1,read:3:thrpt", rwKey, "rw:write", "rw", "write", 1, report.StatusOK},
	{"rw:read/threads=write:1,read:3:thrpt", rwKey, "rw:read", "rw", "read", 3, report.StatusOK},
	{"counter.Inc:avgt", "counter.Inc:avgt", "counter.Inc", "", "", 1, report.StatusOK},
}

// TestGroupRows: a group's run gives its row, then one per member, each
// on its threads, scored from its parts of the group's iterations; the
// group's throughput is its members' sum.
func TestGroupRows(t *testing.T) {
	p, forks, env := reporttest.Group(300)
	rep := report.Build(p, forks, env)
	if diff := cmp.Diff(groupRows, rows(rep)); diff != "" {
		t.Fatalf("rows (-want +got):\n%s", diff)
	}
	group, write, read := rep.Runs[0], rep.Runs[1], rep.Runs[2]
	sum := float64(write.Primary.Score) + float64(read.Primary.Score)
	if g := float64(group.Primary.Score); math.Abs(g-sum) > 0.01*g {
		t.Errorf("group score %v, members' sum %v: want within 1 %%", g, sum)
	}
	// writer: 100 ns per op on 1 thread, 10 ops/us; readers: 3 at 300 ns, 10 ops/us
	for _, r := range []report.Run{write, read} {
		if s := float64(r.Primary.Score); s < 9 || s > 11 || r.Primary.ScoreUnit != "ops/us" {
			t.Errorf("%s: score %v %s, want about 10 ops/us", r.Key, s, r.Primary.ScoreUnit)
		}
		_, forkMetric := r.Forks[0].Metrics["allocs/op"]
		if _, secondary := r.SecondaryMetrics["allocs/op"]; len(r.Forks) != 2 || forkMetric || secondary {
			t.Errorf("%s: %d forks, fork metrics %v, secondary %v: want the group's 2 forks, their metrics on the group's row only", r.Key, len(r.Forks), r.Forks[0].Metrics, r.SecondaryMetrics)
		}
		if r.Settings.Threads != r.Threads {
			t.Errorf("%s: settings threads %d, row threads %d", r.Key, r.Settings.Threads, r.Threads)
		}
	}
	if group.SecondaryMetrics["allocs/op"].Count != 2 {
		t.Errorf("group row: secondary metrics %v, want the forks' allocs/op", group.SecondaryMetrics)
	}
	if live := report.BuildRun(&p.Runs[0], forks[:0:0], env.GOMAXPROCS); live.Group != "rw" || live.Member != "" {
		t.Errorf("BuildRun: group %q member %q, want the group's row", live.Group, live.Member)
	}
}

// TestGroupJSON: the rows validate against the result schema and come
// back from JSON as written, checked by Read against their raw data.
func TestGroupJSON(t *testing.T) {
	p, forks, env := reporttest.Group(300)
	var first bytes.Buffer
	if err := report.Write(&first, report.Build(p, forks, env)); err != nil {
		t.Fatal(err)
	}
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(schemas.Result))
	if err != nil {
		t.Fatal(err)
	}
	res, err := schema.Validate(gojsonschema.NewBytesLoader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors() {
		t.Errorf("schema: %s", e)
	}
	rep, err := report.Read(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(groupRows, rows(rep)); diff != "" {
		t.Errorf("rows read back (-want +got):\n%s", diff)
	}
	var second bytes.Buffer
	if err := report.Write(&second, rep); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first.String(), second.String()); diff != "" {
		t.Errorf("written, read and written again (-first +second):\n%s", diff)
	}
}

// TestGroupForkWithoutMembers: a fork result (a journal's, say) whose
// iteration lacks the members' parts fails the members' rows, saying
// why; the group's row stands on its own numbers.
func TestGroupForkWithoutMembers(t *testing.T) {
	for name, cut := range map[string]int{"none": 0, "one of two": 1} {
		p, forks, env := reporttest.Group(300)
		it := &forks[2].Iterations[2] // fork 2 of rw, measurement iteration 2
		it.Members = it.Members[:cut]
		rep := report.Build(p, forks, env)
		if len(rep.Runs) != 4 || rep.Runs[0].Status != report.StatusOK {
			t.Fatalf("%s: %d rows, group %s: want 4, the group ok", name, len(rep.Runs), rep.Runs[0].Status)
		}
		for _, r := range rep.Runs[1:3] {
			if want := "fork 2: measurement iteration 2 holds"; !r.Failed() || !strings.Contains(r.Error, want) || !strings.Contains(r.Error, "has 2 members (write, read)") {
				t.Errorf("%s: %s: status %s, error %q; want failed, %q…", name, r.Key, r.Status, r.Error, want)
			}
		}
	}
}

// TestGroupSelectedTwice: the second selection of a group (key "#2") has
// member rows of their own.
func TestGroupSelectedTwice(t *testing.T) {
	p, forks, env := reporttest.Group(300)
	p.Runs[0].Key += "#2"
	rep := report.Build(p, forks, env)
	if k, pk := rep.Runs[2].Key, rep.Runs[2].PlanKey(); k != "rw:read/threads=write:1,read:3:thrpt#2" || pk != p.Runs[0].Key {
		t.Errorf("member row key %q, plan key %q; want the group's #2 on both", k, pk)
	}
}

// TestGroupShardsMerge: the parts of a plan with a group merge whole,
// the members' rows after their group's; a part without the group's
// row lacks the group's run.
func TestGroupShardsMerge(t *testing.T) {
	p, forks, env := reporttest.Group(300)
	var parts []report.Named
	for i := 1; i <= 2; i++ {
		part, err := plan.Shard(p, i, 2)
		if err != nil {
			t.Fatal(err)
		}
		var fs = forks[:0:0]
		for _, f := range forks {
			for j, r := range part.Runs {
				if r.Key == p.Runs[f.Run].Key {
					f.Run = j
					fs = append(fs, f)
				}
			}
		}
		parts = append(parts, report.Named{Name: part.Shard.String(), Report: report.Build(part, fs, env)})
	}
	got, _, err := report.Merge([]report.Named{parts[1], parts[0]})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(groupRows, rows(got)); diff != "" {
		t.Errorf("merged rows (-want +got):\n%s", diff)
	}
	for i, part := range parts {
		if part.Report.Runs[0].Key == rwKey {
			part.Report.Runs = part.Report.Runs[1:] // the members without their group
			_, _, err := report.Merge(parts)
			var ie *report.IncompleteError
			if !errors.As(err, &ie) || !cmp.Equal(ie.MissingRuns, []string{rwKey}) {
				t.Errorf("part %d without the group's row: %v; want %s missing", i+1, err, rwKey)
			}
		}
	}
}

// TestGroupPool: two batches' rows pool row by row, members' rows from
// their own parts.
func TestGroupPool(t *testing.T) {
	p, forks, env := reporttest.Group(300)
	a, b := report.Build(p, forks, env), report.Build(p, forks, env)
	got, _, err := report.Pool([]report.Named{{Name: "a", Report: a}, {Name: "b", Report: b}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(groupRows, rows(got)); diff != "" {
		t.Errorf("pooled rows (-want +got):\n%s", diff)
	}
	for i, r := range got.Runs {
		if len(r.Forks) != 4 || !relClose(float64(r.Primary.Score), float64(a.Runs[i].Primary.Score)) {
			t.Errorf("%s: %d forks, score %v; want 4 forks, the score %v of each input", r.Key, len(r.Forks), float64(r.Primary.Score), float64(a.Runs[i].Primary.Score))
		}
	}
}

func relClose(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestGroupRowsNameTheirThreads: a group's rows are named with every
// member's threads, so that the rows of one group run on other threads
// (a sweep of group_threads) never share a name; a plain run keeps its
// count, and a repeat its #N.
func TestGroupRowsNameTheirThreads(t *testing.T) {
	for key, want := range map[string]string{
		"rw/threads=write:1,read:3:thrpt":        "rw/threads=write:1,read:3",
		"rw:write/threads=write:1,read:1:avgt":   "rw:write/threads=write:1,read:1",
		"rw:read/threads=write:2,read:1:thrpt#2": "rw:read/threads=write:2,read:1 #2",
		"counter.Inc/threads=4:thrpt":            "counter.Inc/threads=4",
		"counter.Inc/size=a:b/threads=max:thrpt": "counter.Inc/threads=4",
	} {
		bench, _, _ := strings.Cut(key, "/")
		r := report.Run{Key: key, Benchmark: bench, Threads: 4}
		if got := r.DisplayName(); got != want {
			t.Errorf("%s: DisplayName %q, want %q", key, got, want)
		}
	}
}

// TestReadRefusesAGroupWithoutAMembersRow: a report whose group's row
// lacks a member's row (a part of a merge with one deleted) was edited:
// Read, and so merge, refuses it, naming the member.
func TestReadRefusesAGroupWithoutAMembersRow(t *testing.T) {
	p, forks, env := reporttest.Group(300)
	rep := report.Build(p, forks, env)
	rep.Runs = append(rep.Runs[:1], rep.Runs[2:]...) // the writer's row
	var buf bytes.Buffer
	if err := report.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	_, err := report.Read(&buf)
	if err == nil || !strings.Contains(err.Error(), `group "rw" has no row of its member "write"`) {
		t.Errorf("Read: %v, want the writer's row missing", err)
	}
}
