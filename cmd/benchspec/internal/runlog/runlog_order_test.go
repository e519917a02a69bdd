package runlog

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report/reporttest"
)

// Interleaved, each fork that follows another run's says whose it is;
// the header still comes once per run, before its first fork.
func TestRunLogInterleaved(t *testing.T) {
	p, forks, _ := reporttest.Fixture()
	var out strings.Builder
	l := New(&out, p)
	r0, r1 := &p.Runs[0], &p.Runs[1]
	fork := func(r int, n int) *protocol.ForkResult { f := forkNumber(forks, r, n); return &f }
	l.RunStart(r0)
	l.ForkStart(r0, 1, 3, true, 0, 7)
	l.ForkEnd(r0, fork(0, 1))
	l.RunStart(r1)
	l.ForkStart(r1, 1, 1, false, 1, 7)
	l.ForkEnd(r1, fork(1, 1))
	l.RunEnd(r1, []protocol.ForkResult{*fork(1, 1)})
	l.ForkStart(r0, 2, 3, false, 2, 7)
	l.ForkEnd(r0, fork(0, 2))
	l.ForkStart(r0, 3, 3, false, 3, 7) // follows its own run: no line
	var got []string
	for _, line := range strings.Split(out.String(), "\n") {
		if regexp.MustCompile(`^# (Benchmark|Warmup Fork|Fork):`).MatchString(line) {
			got = append(got, line)
		}
	}
	want := []string{
		"# Benchmark: counter.Inc1", "# Warmup Fork: 1 of 1",
		"# Benchmark: counter.Inc1", "# Fork: 1 of 1",
		"# Benchmark: counter.Inc1 (size = 10) avgt, fork 1 of 2", "# Fork: 1 of 2",
		"# Fork: 2 of 2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("run log lines (-want +got):\n%s", diff)
	}
}
