package compare

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/protocol/hist"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

var update = flag.Bool("update", false, "rewrite the files in testdata/")

// The fixture reports in testdata are what two runs of one build and a
// run of a build with one benchmark 30 % slower would write: report.Build
// over synthetic forks whose iteration times scatter by 2 % around the
// true time, and each fork by 1 % more (forks disagree a little, as real
// ones do). They are generated, so that they stay deterministic and
// readable, and checked in, so that the CLI's tests read real files
// (go test -update regenerates them).
//
// They have 3 forks a run, benchspec's default, with which the rank test
// that a verdict needs cannot be significant (its smallest p is 0.1):
// base5.json and slow5.json are base.json and slow.json with 5 forks a
// run, JMH's default, from which compare can tell a regression.
const (
	baseFile  = "base.json"  // the baseline
	rerunFile = "rerun.json" // the same build measured again
	slowFile  = "slow.json"  // the same, but sqrt.Sunk avgt takes 30 % longer

	base5File = "base5.json" // base.json with 5 forks a run
	slow5File = "slow5.json" // slow.json with 5 forks a run
)

// fixtureRun is a run of the synthetic plan and its true time per op in
// nanoseconds.
type fixtureRun struct {
	name    string
	mode    spec.Mode
	unit    string
	params  []plan.Param
	nsPerOp float64
}

var fixtureRuns = []fixtureRun{
	{"counter.Inc1", spec.ModeAverageTime, "ns", nil, 12},
	{"sqrt.Sunk", spec.ModeAverageTime, "ns", nil, 2.2},
	{"list.Insert", spec.ModeAverageTime, "us", []plan.Param{{Name: "size", Value: "1000"}}, 850},
	{"counter.Inc1", spec.ModeThroughput, "us", nil, 12},
	{"log.Classic", spec.ModeSampleTime, "us", nil, 3400},
}

// synthetic returns the report of the synthetic plan measured with the
// given seed, 3 forks a run; slower maps a run key to a factor on its
// time per op.
func synthetic(seed uint64, slower map[string]float64) *report.Report {
	return syntheticForks(seed, slower, 3)
}

// syntheticForks is synthetic with forks forks a run.
func syntheticForks(seed uint64, slower map[string]float64, forks int) *report.Report {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	p := &plan.Plan{Suite: "seeds", Specs: []plan.SpecRef{{Path: "bench/seeds.yaml", SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}}}
	var results []protocol.ForkResult
	for i, fr := range fixtureRuns {
		key := fr.name + "#" + fr.mode.String()
		if len(fr.params) > 0 {
			key = fr.name + "?" + fr.params[0].Name + "=" + fr.params[0].Value + "#" + fr.mode.String()
		}
		s := spec.Settings{TimeUnit: fr.unit, Forks: forks, Timeout: 10 * time.Minute, Env: map[string]string{},
			Settings: protocol.Settings{Warmup: spec.Iterations{Iterations: 1, Time: 100 * time.Millisecond, BatchSize: 1},
				Measurement:      spec.Iterations{Iterations: 5, Time: 100 * time.Millisecond, BatchSize: 1},
				OpsPerInvocation: 1, Threads: 1}}
		p.Runs = append(p.Runs, plan.Run{Index: i, Key: key, Benchmark: fr.name, Params: fr.params, Mode: fr.mode,
			Settings: s, Spec: "bench/seeds.yaml"})
		perOp := fr.nsPerOp
		if f, ok := slower[key]; ok {
			perOp *= f
		}
		for fork := 1; fork <= forks; fork++ {
			forkBias := 1 + 0.01*rng.NormFloat64()
			f := protocol.ForkResult{Run: i, Fork: fork, PID: 100 + fork, Wall: time.Second}
			for it := 0; it < 6; it++ {
				phase, index := protocol.PhaseMeasurement, it
				if it == 0 {
					phase, index = protocol.PhaseWarmup, 1
				}
				t := perOp * forkBias * (1 + 0.02*rng.NormFloat64())
				f.Iterations = append(f.Iterations, iteration(fr.mode, phase, index, t, rng))
			}
			results = append(results, f)
		}
	}
	env := report.Env{ToolVersion: "v0.1.0", GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 3.00GHz",
		NumCPU: 8, GOMAXPROCS: 8, Hostname: "bench-host", TimerResolutionNs: report.NaN(), TimerOverheadNs: report.NaN(),
		Start: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), End: time.Date(2025, 1, 2, 3, 9, 5, 0, time.UTC)}
	return report.Build(p, results, env)
}

// iteration is a measurement of 100 ms at t ns per op; in sample mode,
// 20 samples spread ±5 % around t.
func iteration(mode spec.Mode, phase string, index int, t float64, rng *rand.Rand) protocol.Iteration {
	if mode != spec.ModeSampleTime {
		ops := float64(int(1e8 / t))
		return protocol.Iteration{Phase: phase, Index: index, Ops: ops, TimeNs: ops * t, Invocations: uint64(ops)}
	}
	h := &hist.Histogram{}
	for range 20 {
		h.Record(t * (1 + 0.05*rng.NormFloat64()))
	}
	s := h.Snapshot()
	return protocol.Iteration{Phase: phase, Index: index, Ops: 20, TimeNs: h.Sum(), Invocations: 20, Histogram: &s}
}

func fixtures() map[string]*report.Report {
	return map[string]*report.Report{
		baseFile:  synthetic(1, nil),
		rerunFile: synthetic(2, nil),
		slowFile:  synthetic(2, map[string]float64{"sqrt.Sunk#avgt": 1.3}),
		base5File: syntheticForks(1, nil, 5),
		slow5File: syntheticForks(2, map[string]float64{"sqrt.Sunk#avgt": 1.3}, 5),
	}
}

// TestFixtureFiles rewrites the fixture reports with -update. Otherwise
// they are inputs like any saved report, and the tests read them as they
// are, whatever later versions of report.Build would add to them.
func TestFixtureFiles(t *testing.T) {
	if !*update {
		t.Skip("the fixture reports are rewritten with -update only")
	}
	for name, rep := range fixtures() {
		var buf bytes.Buffer
		if err := report.Write(&buf, rep); err != nil {
			t.Fatal(err)
		}
		golden(t, name, buf.String())
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// load reads a fixture report from testdata.
func load(t *testing.T, name string) *report.Report {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := report.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
