// Command selfbench measures benchspec itself — its per-op overhead, its
// accuracy, the cost of Sink, of a fork and of a batch, and sample mode
// — against `go test -bench`'s testing.B, each
// comparison side by side in one run, alternating A and B to cancel
// drift. It prints a Markdown table on stdout and its progress on stderr:
//
//	go run ./tools/selfbench
//
// It takes a little over two minutes on 2 cores, and warns when other
// processes took more than 5 % of the CPUs meanwhile (the figures are then
// disturbed). The binary is also an ordinary benchspec suite holding the
// bodies it measures:
//
//	go run ./tools/selfbench run tools/selfbench/selfbench.yaml
//
// testing.B's figures come from testing.Benchmark run in a fresh process
// of this binary each time, with -test.benchtime equal to benchspec's
// measurement time, on a body with the same statements as benchspec's; a
// second body in the classic `for range b.N` loop is the control for
// what testing.B.Loop's compiler keep-alive changes in the generated code.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/internal/worker"
)

//go:embed selfbench.yaml
var selfbenchYAML []byte

//go:embed efficiency.yaml
var efficiencyYAML []byte

func main() {
	switch {
	case worker.IsChild():
		benchspec.Main() // a fork, or the guard of a batch
	case os.Getenv(envChild) != "":
		os.Exit(child(os.Getenv(envChild)))
	case os.Getenv(envLoopSpread) != "":
		os.Exit(loopSpreadMain(os.Getenv(envLoopSpread)))
	case os.Getenv(envBaselineSweep) != "":
		os.Exit(baselineSweepMain(os.Getenv(envBaselineSweep)))
	case os.Getenv(envInProcess) != "":
		os.Exit(inProcessMain(os.Getenv(envInProcess)))
	case len(os.Args) > 1:
		benchspec.Main() // run, list, validate, plan: the suite's commands
	}
	os.Exit(drive())
}

// envItems, when set, names the items to run, e.g. "4,5,7" (item 3
// reuses item 1's and 2's medians: it runs them too). Unset: all.
const envItems = "SELFBENCH_ITEMS"

// envWorkloads, when set, names item 2's workloads to run, e.g.
// "map.Lookup,sort.Ints1000" (item 3 reuses sqrt.Sunk's medians: with
// item 3, sqrt.Sunk runs too). Unset: all of accuracyWorkloads.
const envWorkloads = "SELFBENCH_WORKLOADS"

// envRounds, when set, is item 2's number of rounds: benchspec forks and
// testing.B processes of each form per workload, instead of
// selfbench.yaml's 5.
const envRounds = "SELFBENCH_ROUNDS"

type item struct {
	id, name string
	run      func() error
}

// selectItems keeps the items that list names (comma-separated ids),
// with the ones a kept item depends on; "" keeps all.
func selectItems(items []item, list string) ([]item, error) {
	if strings.TrimSpace(list) == "" {
		return items, nil
	}
	want := map[string]bool{}
	for _, id := range strings.Split(list, ",") {
		id = strings.TrimSpace(id)
		if !slices.ContainsFunc(items, func(it item) bool { return it.id == id }) {
			return nil, fmt.Errorf("%s=%q: no item %q; the items are 1 to %d", envItems, list, id, len(items))
		}
		want[id] = true
	}
	if want["3"] {
		want["1"], want["2"] = true, true // item 3 compares with their medians
	}
	var out []item
	for _, it := range items {
		if want[it.id] {
			out = append(out, it)
		}
	}
	return out, nil
}

// selectWorkloads keeps the accuracy workloads that list names
// (comma-separated), in accuracyWorkloads' order, with sqrt.Sunk when
// withSink (item 3 needs its medians); "" keeps all.
func selectWorkloads(list string, withSink bool) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return accuracyWorkloads, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(accuracyWorkloads, name) {
			return nil, fmt.Errorf("%s=%q: no accuracy workload %q; they are %s", envWorkloads, list, name, strings.Join(accuracyWorkloads, ", "))
		}
		want[name] = true
	}
	if withSink {
		want["sqrt.Sunk"] = true
	}
	var out []string
	for _, name := range accuracyWorkloads {
		if want[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// parseRounds reads envRounds: "" is 0 (the spec's forks), else a
// positive number of rounds.
func parseRounds(v string) (int, error) {
	if strings.TrimSpace(v) == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: not a number of rounds; give a whole number from 1, e.g. %s=5", envRounds, v, envRounds)
	}
	return n, nil
}

// driver holds the figures one item reuses from another.
type driver struct {
	h   *harness
	res results
	// Item 2's workloads (envWorkloads) and rounds (envRounds, 0: the
	// spec's forks).
	workloads []string
	rounds    int
	// Medians in ns/op of the empty loop (item 1) and of sqrt.Sunk
	// (item 2), benchspec and testing.B: item 3's references.
	empty, sqrt pair
}

type pair struct{ bench, test float64 }

func drive() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "selfbench: "+format+"\n", args...) }
	h, err := newHarness(ctx, logf)
	if err != nil {
		logf("%v", err)
		return 2
	}
	d := &driver{h: h}
	items := []item{
		{"1", "1. per-op overhead", d.overhead},
		{"2", "2. accuracy", d.accuracy},
		{"3", "3. sink cost", d.sinkCost},
		{"4", "4. fork cost", d.forkCost},
		{"5", "5. wall-time efficiency", d.efficiency},
		{"6", "6. sample mode", d.sampleMode},
	}
	items, err = selectItems(items, os.Getenv(envItems))
	if err != nil {
		logf("%v", err)
		return 2
	}
	withSink := slices.ContainsFunc(items, func(it item) bool { return it.id == "3" })
	if d.workloads, err = selectWorkloads(os.Getenv(envWorkloads), withSink); err != nil {
		logf("%v", err)
		return 2
	}
	if d.rounds, err = parseRounds(os.Getenv(envRounds)); err != nil {
		logf("%v", err)
		return 2
	}
	before := snapshotCPU()
	for _, item := range items {
		t := time.Now()
		logf("%s …", item.name)
		if err := item.run(); err != nil {
			logf("%s: %v", item.name, err)
			return 1
		}
		logf("%s: %s", item.name, time.Since(t).Round(time.Second))
	}
	env := h.env
	used, stolen := others(before, snapshotCPU(), env.NumCPU)
	quiet := fmt.Sprintf("other processes used %.0f %% of the CPUs meanwhile, steal %.0f %%", 100*used, 100*stolen)
	if used < 0 {
		quiet = "the load of other processes is unknown (no /proc/stat)"
	} else if used > 0.05 {
		logf("warning: %s: the figures are disturbed; rerun on a quiet machine", quiet)
	}
	fmt.Printf("benchspec self-benchmark, %s: %s, %d cores (GOMAXPROCS %d), %s %s/%s. The run took %s; %s.\n\n",
		start.Format("2006-01-02"), env.CPU, env.NumCPU, env.GOMAXPROCS, runtime.Version(), runtime.GOOS, runtime.GOARCH,
		time.Since(start).Round(time.Second), quiet)
	if len(items) < 6 {
		var ids []string
		for _, it := range items {
			ids = append(ids, it.id)
		}
		fmt.Printf("Only items %s (%s).\n\n", strings.Join(ids, ", "), envItems)
	}
	if len(d.workloads) < len(accuracyWorkloads) || d.rounds > 0 {
		fmt.Printf("Item 2: %s, %s (%s, %s).\n\n", strings.Join(d.workloads, ", "), roundsText(d.rounds), envWorkloads, envRounds)
	}
	d.res.writeMarkdown(os.Stdout)
	return 0
}
