package benchspec_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/report"
)

func init() {
	// A dead body in the Invocations form (its `for b.Loop()` twin is
	// native.SqrtDropped, testing_test.go), and real work (a chain of
	// dependent square roots, some 20 cycles a call) in the form with the
	// cheaper loop.
	benchspec.Register("deadcode.Invocations", func(b *benchspec.B) {
		x := 0.0
		for range b.Invocations() {
			_ = math.Sqrt(x)
			x++
		}
	})
	benchspec.Register("deadcode.AliveInvocations", func(b *benchspec.B) {
		x := 1.0
		for range b.Invocations() {
			x = math.Sqrt(x + 2)
		}
		benchspec.Sink(x)
	})
}

// Through real forks: every fork reports its empty loop in both forms,
// the report carries them (and validates), a dead body is DEAD_CODE in
// either loop form, and real work in the cheaper form is not.
//
// DEAD_CODE is statistical: a call's median over short iterations
// against the fork's fastest empty-loop iteration, so load that
// preempts most of a dead body's iterations can lift it over 3×; a dead
// body gets up to three batches. Real work sits at 10× or more and must
// never be flagged.
func TestDeadCodeThroughForks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts forks")
	}
	spec := writeSpec(t, `version: 1
name: deadcode
defaults:
  forks: 3
  warmup:      {iterations: 1, time: 1ms}
  measurement: {iterations: 10, time: 1ms}
  timeout: 60s
benchmarks:
  - include: '^(deadcode\..*|native\.SqrtDropped)$'
    modes: [avgt]
`)
	dead := map[string]bool{"native.SqrtDropped": false, "deadcode.Invocations": false}
	var last []string
	for batch := 1; batch <= 3; batch++ {
		out := filepath.Join(t.TempDir(), "r.json")
		r := suite(t, "run", spec, "--format", "json", "--out", out, "--quiet")
		if r.Code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
		}
		rep, data := readReport(t, out)
		validateResult(t, data)
		last = last[:0]
		for _, run := range rep.Runs {
			for _, f := range run.Forks {
				if n := worker.BaselineIterations; len(f.Timer.BaselineNs) != n || len(f.Timer.BaselineInvocationsNs) != n {
					t.Errorf("%s fork %d: baselines of %d and %d iterations, want %d of each form", run.Benchmark, f.Fork, len(f.Timer.BaselineNs), len(f.Timer.BaselineInvocationsNs), n)
				}
			}
			d := deadCodeOf(run)
			ratio := "none"
			if d != nil {
				ratio = fmt.Sprintf("%.3g×", float64(d.Evidence["ratio"]))
			}
			last = append(last, fmt.Sprintf("%s DEAD_CODE %s", run.Benchmark, ratio))
			switch run.Benchmark {
			case "deadcode.AliveInvocations":
				if d != nil {
					t.Errorf("real work in `for range b.Invocations()` flagged: %s", d.Message)
				}
			default:
				if d == nil {
					continue
				}
				dead[run.Benchmark] = true
				for _, k := range []string{"baseline_ns", "baseline_loop_ns", "baseline_invocations_ns"} {
					if v := float64(d.Evidence[k]); !(v > 0) {
						t.Errorf("%s: DEAD_CODE evidence %s = %v, want the measured floor", run.Benchmark, k, v)
					}
				}
			}
		}
		if dead["native.SqrtDropped"] && dead["deadcode.Invocations"] {
			t.Logf("batch %d: %v", batch, last)
			return
		}
	}
	t.Errorf("a dead body not flagged in 3 batches (flagged: %v); last batch: %v", dead, last)
}

func deadCodeOf(run report.Run) *report.Diagnostic {
	for i, d := range run.Diagnostics {
		if d.Code == "DEAD_CODE" {
			return &run.Diagnostics[i]
		}
	}
	return nil
}
