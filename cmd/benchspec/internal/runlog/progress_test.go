package runlog

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

func TestBarLine(t *testing.T) {
	for _, tc := range []struct {
		done, all int
		want      string
	}{
		{0, 4, "  0% [                        ] (0/4) d"},
		{1, 4, " 25% [██████                  ] (1/4) d"},
		{1, 3, " 33% [████████                ] (1/3) d"},
		{1, 7, " 14% [███▍                    ] (1/7) d"},
		{4, 4, "100% [████████████████████████] (4/4) d"},
		{0, 0, "  0% [                        ] (0/1) d"},
	} {
		if got := barLine(tc.done, tc.all, "d"); got != tc.want {
			t.Errorf("barLine(%d, %d) = %q, want %q", tc.done, tc.all, got, tc.want)
		}
	}
}

// The bar redraws its line in place, puts a failed fork on a line of its
// own above it, and ends with the batch's summary and a newline.
func TestBarDrawsForksAndFailures(t *testing.T) {
	r := plan.Run{Key: "x:avgt", Settings: spec.Settings{Forks: 2}}
	p := &plan.Plan{Runs: []plan.Run{r}}
	var out bytes.Buffer
	b := newBar(&out, p)
	b.ForkStart(&p.Runs[0], 1, 2, false, 0, 2)
	b.ForkEnd(&p.Runs[0], &protocol.ForkResult{Fork: 1})
	b.ForkStart(&p.Runs[0], 2, 2, false, 1, 2)
	b.ForkEnd(&p.Runs[0], &protocol.ForkResult{Fork: 2, Err: "boom\nstack"})
	b.close()
	got := out.String()
	for _, want := range []string{"(0/2) ETA", "x:avgt fork 1 of 2", "\r\x1b[Kx:avgt fork 2 of 2 FAILED: boom\n", "(2/2) 2 of 2 forks in", "\x1b[K\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%q", want, got)
		}
	}
	if strings.Contains(got, "stack") {
		t.Errorf("output holds more than the error's first line:\n%q", got)
	}
}

// The plain progress lines: one per fork, when it ends, timestamped,
// with the plan's count and the ETA.
func TestProgressLines(t *testing.T) {
	s := spec.DefaultSettings()
	s.Forks = 2
	p := &plan.Plan{Estimate: 40 * time.Second, Runs: []plan.Run{
		{Index: 0, Key: "a:avgt", Benchmark: "a", Settings: s, Estimate: 20 * time.Second},
		{Index: 1, Key: "b:avgt", Benchmark: "b", Settings: s, Estimate: 20 * time.Second},
	}}
	now := time.Date(2026, 1, 15, 2, 30, 0, 0, time.UTC)
	var out bytes.Buffer
	l := newLines(&out, p, func() time.Time { return now })
	l.ForkStart(&p.Runs[0], 1, 2, false, 0, 4)
	now = now.Add(5 * time.Second) // half the estimate: the ETA halves too
	l.ForkEnd(&p.Runs[0], &protocol.ForkResult{Fork: 1, Wall: 5 * time.Second})
	l.ForkStart(&p.Runs[1], 1, 2, false, 1, 3) // run a failed: its fork 2 left the count; 10 s of plan left, at 6/20 of the estimate
	now = now.Add(time.Second)
	l.ForkEnd(&p.Runs[1], &protocol.ForkResult{Fork: 1, Wall: time.Second, Err: "exit status 2\nmore"})
	want := "2026-01-15T02:30:05Z [1/4] a:avgt fork 1 of 2: ok in 5s, ETA 00:00:15\n" +
		"2026-01-15T02:30:06Z [2/3] b:avgt fork 1 of 2: FAILED: exit status 2, in 1s, ETA 00:00:03\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s", diff)
	}
}

// Not a terminal, or CI=true: a line per run (the run log with --verbose);
// no bar.
func TestDisplayChoice(t *testing.T) {
	p := &plan.Plan{}
	var buf bytes.Buffer
	if obs, _ := Display(&buf, p, nil, false, false); obs == nil {
		t.Errorf("a pipe gets no display")
	} else if _, ok := obs.(*runLines); !ok {
		t.Errorf("a pipe gets %T, want a line per run", obs)
	}
	if obs, _ := Display(&buf, p, nil, false, true); obs == nil {
		t.Errorf("a pipe with --verbose gets no display")
	} else if _, ok := obs.(fanOut); !ok {
		t.Errorf("a pipe with --verbose gets %T, want the run log and a line per fork", obs)
	}
	if obs, _ := Display(&buf, p, nil, true, false); obs != nil {
		t.Errorf("--quiet gets %T", obs)
	}
	t.Setenv("CI", "true")
	if interactive(os.Stderr) {
		t.Errorf("CI=true is interactive")
	}
}

// A line per run, when it ends, not per fork or iteration: the log of a
// batch that is not watched on a terminal stays as long as its plan.
func TestRunLines(t *testing.T) {
	p := &plan.Plan{Estimate: 40 * time.Second, Runs: []plan.Run{
		{Index: 0, Key: "a:avgt", Benchmark: "a", Settings: spec.Settings{Forks: 2}, Estimate: 20 * time.Second},
		{Index: 1, Key: "b:avgt", Benchmark: "b", Settings: spec.Settings{Forks: 2}, Estimate: 20 * time.Second},
	}}
	now := time.Date(2026, 1, 15, 2, 30, 0, 0, time.UTC)
	var out bytes.Buffer
	l := newRunLines(&out, p, func() time.Time { return now })
	var forks []protocol.ForkResult
	for fork := 1; fork <= 2; fork++ {
		l.ForkStart(&p.Runs[0], fork, 2, false, fork-1, 4)
		l.Iteration(&p.Runs[0], fork, &protocol.Iteration{})
		now = now.Add(5 * time.Second)
		f := protocol.ForkResult{Fork: fork, Wall: 5 * time.Second}
		l.ForkEnd(&p.Runs[0], &f)
		forks = append(forks, f)
	}
	l.RunEnd(&p.Runs[0], forks)
	l.ForkStart(&p.Runs[1], 1, 2, false, 2, 4)
	now = now.Add(time.Second)
	failed := protocol.ForkResult{Fork: 1, Wall: time.Second, Err: "exit status 2\nmore"}
	l.ForkEnd(&p.Runs[1], &failed)
	l.RunEnd(&p.Runs[1], []protocol.ForkResult{failed})
	want := "2026-01-15T02:30:10Z [1/2] a:avgt: ok, 2 forks in 10s, ETA 00:00:10\n" +
		"2026-01-15T02:30:11Z [2/2] b:avgt: FAILED (fork 1: exit status 2), 1 fork in 1s, ETA 00:00:04\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("run lines (-want +got):\n%s", diff)
	}
}
