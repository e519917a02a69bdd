package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestReadRefusesSelfContradictingReports: a report read back is checked
// against its own raw data and settings, and one that contradicts itself
// (edited, forged) is refused naming the run: a negative or otherwise
// wrong score, operations multiplied behind their score, an unknown mode
// or one its key contradicts, one run twice, a group's or member's row
// not named as its group says.
func TestReadRefusesSelfContradictingReports(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(r *Report)
		want   string
	}{
		{"untouched", func(r *Report) {}, ""},
		{"negative score", func(r *Report) { r.Runs[0].Primary.Score = -12 }, "runs[0] (counter.Inc1?size=10#avgt): score -12, but its raw data's mean is 12"},
		{"score off its raw data", func(r *Report) { r.Runs[1].Primary.Score *= 1000 }, "runs[1] (counter.Inc1?size=1000#thrpt): score 5000, but its raw data's mean is 5"},
		{"negative time", func(r *Report) { r.Runs[0].Forks[1].Iterations[2].TimeNs = -1 }, "negative operations or time (ops 1e+06, time -1 ns) in a run whose status is ok"},
		{"ops multiplied", func(r *Report) {
			for i := range r.Runs[0].Forks[1].Iterations {
				r.Runs[0].Forks[1].Iterations[i].Ops *= 1000
			}
		}, "score 10, but its 1e+09 operations in 1e+07 ns make 0.01 ns/op"},
		{"raw data edited", func(r *Report) { r.Runs[0].Primary.RawData[0][0] = 1 }, "primary_metric.raw_data[0][0] is 1, but that iteration's score is 10"},
		{"min edited", func(r *Report) { r.Runs[0].Primary.Min = 0.5 }, "min 0.5 and max 14, but its raw data ranges from 10 to 14"},
		{"mode turbo", func(r *Report) { r.Runs[0].Mode = "turbo" }, `mode "turbo" is not a mode benchspec has`},
		{"mode against key", func(r *Report) { r.Runs[1].Key = "counter.Inc1/size=1000:avgt" }, `mode "thrpt", but the run's key names mode "avgt"`},
		{"one key twice", func(r *Report) { r.Runs[1].Key = r.Runs[0].Key }, `runs[0] and runs[1] have the same key "counter.Inc1?size=10#avgt"`},
		{"a member of no group", func(r *Report) { r.Runs[0].Member = "write" }, `member "write" of group "", but benchmark "counter.Inc1": a member's row is named group:member`},
		{"a group's row of another name", func(r *Report) { r.Runs[0].Group = "rw" }, `group "rw", but benchmark "counter.Inc1": a group's row is named as the group`},
	} {
		p, forks, env := fixture()
		rep := Build(p, forks, env)
		tc.change(rep)
		var buf bytes.Buffer
		if err := Write(&buf, rep); err != nil {
			t.Fatal(err)
		}
		_, err := Read(&buf)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Read error %v; want %q", tc.name, err, tc.want)
		}
	}
}
