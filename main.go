package benchspec

import (
	"os"

	"github.com/benchspec/benchspec/internal/cli"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
)

// Main runs the suite binary: the sub-commands run, list, validate and
// plan (see `--help`), or, when the binary was started as a fork by a
// parent benchspec, the worker that measures one fork (or the guard that
// ends a batch's forks if the parent dies). Main does not return; it
// exits with 0 when all went well, 1 when a benchmark failed, 2 on bad
// usage or an invalid spec, and 130 or 143 when SIGINT or SIGTERM
// interrupted a run (after writing the partial report).
func Main() {
	cli.ServeChild(lookup)
	os.Exit(cli.SuiteMain(cli.Registry{
		Benchmarks: registered(),
		InProcess:  inProcess,
		Packages:   cli.PackageBenchmarks(),
	}))
}

// inProcess runs a forks: 0 assignment in this process.
func inProcess(a *protocol.Assignment, emit func(*protocol.Iteration) error) (protocol.TimerCalibration, map[string]float64, error) {
	body, _ := lookup(a.Run.Benchmark)
	clock := worker.SystemClock()
	cal := worker.CalibrateFork(clock)
	out, err := body.Run(a, clock, worker.SystemRand(), emit)
	if err != nil {
		return cal, nil, err
	}
	return cal, out.Metrics, nil
}
