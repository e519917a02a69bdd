package benchspec

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/benchspec/benchspec/internal/handoff"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/worker"
)

// Main runs the suite binary. Started by the benchspec program as a fork,
// it measures that fork and exits; asked for its benchmarks, it lists
// them. Run by a person (`go run ./bench run spec.yaml`), it hands its
// command line to the benchspec program, which plans and runs the batch
// with this binary's forks: the program named by $BENCHSPEC_PARENT, else
// `go tool benchspec` of the current module, else `benchspec` on PATH.
// Main does not return; the exit status is the benchspec program's: 0
// all good, 1 a benchmark failed, 2 bad usage or an invalid spec, 130 or
// 143 an interrupted run.
func Main() {
	worker.ServeChild(lookup, nil, nil)
	if os.Getenv(protocol.EnvList) != "" {
		os.Exit(list())
	}
	os.Exit(handoff.Run(os.Args))
}

// list writes the registry for the parent.
func list() int {
	err := json.NewEncoder(os.Stdout).Encode(&protocol.Listing{Version: protocol.Version, Benchmarks: registered()})
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchspec: listing the benchmarks: %v\n", err)
		return 2
	}
	return 0
}
