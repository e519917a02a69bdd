package runlog

import (
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/executor"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

// replay drives an observer through the fixture as the executor would.
func replay(o executor.Observer) {
	p, forks, _ := reporttest.Fixture()
	all := 0
	for _, r := range p.Runs {
		all += r.Settings.WarmupForks + max(r.Settings.Forks, 1)
	}
	done := 0
	for i := range p.Runs {
		r := &p.Runs[i]
		var mine []protocol.ForkResult
		for _, f := range forks {
			if f.Run == i {
				mine = append(mine, f)
			}
		}
		for n := 1; n <= len(mine); n++ {
			mine[n-1] = forkNumber(forks, i, n)
		}
		o.RunStart(r)
		for _, f := range mine {
			o.ForkStart(r, f.Fork, len(mine), f.Warmup, done, all)
			for j := range f.Iterations {
				o.Iteration(r, f.Fork, &f.Iterations[j])
			}
			o.ForkEnd(r, &f)
			done++
		}
		o.RunEnd(r, mine)
	}
}

func forkNumber(forks []protocol.ForkResult, run, n int) protocol.ForkResult {
	for _, f := range forks {
		if f.Run == run && f.Fork == n {
			return f
		}
	}
	panic("no such fork")
}

func TestRunLogGolden(t *testing.T) {
	p, _, _ := reporttest.Fixture()
	var out strings.Builder
	l := New(&out, p)
	replay(l)
	if l.Err() != nil {
		t.Fatal(l.Err())
	}
	reporttest.Golden(t, "runlog.golden", out.String())
}

func TestRunLogETA(t *testing.T) {
	p, _, _ := reporttest.Fixture() // 7 forks; run 0 has 3 of 15 s each
	l := New(&strings.Builder{}, p)
	if got := l.est.Left(0, 7, 0); got != 2*time.Minute {
		t.Errorf("ETA before any fork = %v, want the plan's 2m", got)
	}
	l.ForkEnd(&p.Runs[0], &protocol.ForkResult{Wall: 3 * time.Second})
	l.ForkEnd(&p.Runs[0], &protocol.ForkResult{Wall: 5 * time.Second})
	if got := l.est.Left(2, 7, 0); got != 24*time.Second {
		t.Errorf("ETA with 90 s of plan left, forks taking 8/30 of their estimate = %v, want 24s", got)
	}
}

// TestRunLogEdgeScoresGolden writes the results of the scores three
// decimals misread (see reporttest.EdgeScores) as the run log does.
func TestRunLogEdgeScoresGolden(t *testing.T) {
	p, forks, _ := reporttest.EdgeScores()
	var out strings.Builder
	l := New(&out, p)
	for i := range p.Runs {
		l.RunEnd(&p.Runs[i], forks[i:i+1])
	}
	if l.Err() != nil {
		t.Fatal(l.Err())
	}
	reporttest.Golden(t, "edges.golden", out.String())
}

// Each fork's empty-loop baseline shows in the log, and under the result
// the baselines of all measured forks side by side with their spread: a
// loop whose cost depends on the process shows there.
func TestRunLogShowsEachForksBaseline(t *testing.T) {
	p, forks, _ := reporttest.Fixture()
	var mine []protocol.ForkResult
	for _, f := range forks {
		if f.Run == 0 {
			mine = append(mine, f)
		}
	}
	base := [][]float64{{0.9, 0.3, 0.31}, {0.30, 0.29, 0.31, 0.28}, {0.66, 0.7, 0.64}}
	inv := [][]float64{nil, {0.32, 0.31}, {0.7, 0.62}}
	for i := range mine {
		mine[i].Timer.BaselineNs = base[i%len(base)]
		mine[i].Timer.BaselineInvocationsNs = inv[i%len(inv)]
	}
	var out strings.Builder
	l := New(&out, p)
	for i := range mine {
		l.ForkEnd(&p.Runs[0], &mine[i])
	}
	l.RunEnd(&p.Runs[0], mine)
	got := out.String()
	for _, want := range []string{
		"# Empty loop in this fork: 0.300 ns per call, its fastest iteration (for b.Loop() 0.300–0.900 in 3): the floor DEAD_CODE compares with",
		"# Empty loop in this fork: 0.280 ns per call, its fastest iteration (for b.Loop() 0.280–0.310 in 4, for range b.Invocations() 0.310–0.320 in 2):",
		"# Empty loop in this fork: 0.620 ns per call, its fastest iteration (for b.Loop() 0.640–0.700 in 3, for range b.Invocations() 0.620–0.700 in 2):",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the log lacks %q:\n%s", want, got)
		}
	}
	// The warmup fork (the fixture's first) is not a measured fork.
	var measured []string
	for i, f := range mine {
		if !f.Warmup {
			measured = append(measured, []string{"0.300", "0.280", "0.620"}[i%len(base)])
		}
	}
	if len(measured) < 2 {
		t.Fatalf("fixture: %d measured forks, want 2 or more", len(measured))
	}
	if want := "  empty loop per fork: " + strings.Join(measured, ", ") + " ns per call (fastest iteration; max/min "; !strings.Contains(got, want) {
		t.Errorf("the result lacks %q:\n%s", want, got)
	}
}

// The run log says why a run with a precision target stopped, what it
// reached and what it cost, with the iterations of each fork.
func TestPrecisionLine(t *testing.T) {
	p := &report.Precision{Reason: report.StopMaxForks, TargetError: 0.01, Error: 0.0321, Forks: 5, WallNs: int64(12 * time.Second),
		ForkIterations: []int{3, 3, 3, 6, 12}, ForkCostNs: 4e8, IterationCostNs: 1e8, OptimalIterations: 14.2}
	want := "Precision: stopped at max_forks: ±3.21% for a target of ±1% after 5 forks (measurement iterations 3,3,3,6,12) in 12 s; the optimal allocation is 14.2 iterations per fork"
	if got := precisionLine(p); got != want {
		t.Errorf("precision line:\n got %s\nwant %s", got, want)
	}
	p.WallNs, p.Reason, p.Error = 1800509970, report.StopPrecise, 0.0098
	if got := precisionLine(p); !strings.HasPrefix(got, "Precision: precise: ±0.98% for a target of ±1% after 5 forks (measurement iterations 3,3,3,6,12) in 1.8 s;") {
		t.Errorf("precision line: %s; want it precise in 1.8 s", got)
	}
	if got := precisionLine(nil); got != "" {
		t.Errorf("no precision: %q, want nothing", got)
	}
}

// TestForkLabelNamesThreads: the line of an interleaved fork names a run
// of 2 goroutines as the result table does.
func TestForkLabelNamesThreads(t *testing.T) {
	p, _, _ := reporttest.Fixture()
	r := p.Runs[0]
	r.Settings.Threads = 2
	if got := forkLabel(&r); !strings.HasPrefix(got, r.Benchmark+"/threads=2 ") {
		t.Errorf("forkLabel = %q, want it to start with %q", got, r.Benchmark+"/threads=2 ")
	}
}
