package cli

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
)

// EnvCompletionIndex is the variable a Kubernetes Indexed Job sets in
// each pod: the pod's index, from 0. --shard-from-env runs shard
// index+1 of --shards.
const EnvCompletionIndex = "JOB_COMPLETION_INDEX"

// shardFlags are the flags that pick a part of the plan (plan.Shard).
type shardFlags struct {
	shard   string // --shard i/n
	fromEnv bool   // --shard-from-env
	shards  int    // --shards n
}

// register adds the flags; forPlan is the plan command's, where --shards
// alone shows how the runs split into n parts.
func (f *shardFlags) register(fs *flag.FlagSet, forPlan bool) {
	fs.StringVar(&f.shard, "shard", "", "run only part `i/n` of the plan (1-based: 1/4 … 4/4), balanced by estimated time; run every part, anywhere, and merge their reports with benchspec merge")
	fs.BoolVar(&f.fromEnv, "shard-from-env", false, "take the part from "+EnvCompletionIndex+" (a Kubernetes Indexed Job's pod index, from 0: part index+1) of --shards")
	shards := "the number of parts, with --shard-from-env"
	if forPlan {
		shards = "show which of `n` parts each run falls in (alone), or the number of parts (with --shard-from-env)"
	}
	fs.IntVar(&f.shards, "shards", 0, shards)
}

// part returns the shard the flags ask for as (i, n), or (0, 0) for the
// whole plan.
func (f *shardFlags) part(getenv func(string) string) (i, n int, err error) {
	switch {
	case f.shard != "" && f.fromEnv:
		return 0, 0, fmt.Errorf("--shard and --shard-from-env: give one of them")
	case f.shard != "":
		if f.shards != 0 {
			return 0, 0, fmt.Errorf("--shards goes with --shard-from-env; --shard i/n says n itself")
		}
		return plan.ParseShard(f.shard)
	case f.fromEnv:
		if f.shards < 1 {
			return 0, 0, fmt.Errorf("--shard-from-env needs --shards N, the number of parts (the Job's completions)")
		}
		v := getenv(EnvCompletionIndex)
		idx, err := strconv.Atoi(v)
		if err != nil || idx < 0 {
			return 0, 0, fmt.Errorf("--shard-from-env: %s=%q is not a pod index (0, 1, …): is this a pod of a Kubernetes Job with completionMode: Indexed?", EnvCompletionIndex, v)
		}
		if idx >= f.shards {
			return 0, 0, fmt.Errorf("--shard-from-env: %s=%d, but --shards %d numbers the pods 0 to %d", EnvCompletionIndex, idx, f.shards, f.shards-1)
		}
		return idx + 1, f.shards, nil
	case f.shards != 0:
		return 0, 0, fmt.Errorf("--shards goes with --shard-from-env")
	}
	return 0, 0, nil
}

// apply returns the part of p the flags ask for, or p. It prints why it
// cannot and returns false.
func (f *shardFlags) apply(p *plan.Plan, e *Env) (*plan.Plan, bool) {
	i, n, err := f.part(os.Getenv)
	if err == nil && n > 0 {
		p, err = plan.Shard(p, i, n)
	}
	if err != nil {
		e.UsageError("%v", err)
		return nil, false
	}
	return p, true
}

// orderFlags are --order and --seed.
type orderFlags struct {
	order string
	seed  uint64
}

func (f *orderFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.order, "order", executor.OrderDeclared, "the order of the forks: "+strings.Join(executor.Orders(), ", ")+" (see the README)")
	fs.Uint64Var(&f.seed, "seed", 0, "the seed of --order random (default: a new one, printed and recorded in the report)")
}

// resolve returns the order the flags ask for; a random order without
// --seed gets a fresh seed.
func (f *orderFlags) resolve(fs *flag.FlagSet) (executor.Order, error) {
	seeded := false
	fs.Visit(func(fl *flag.Flag) { seeded = seeded || fl.Name == "seed" })
	if seeded && f.order != executor.OrderRandom {
		return executor.Order{}, fmt.Errorf("--seed goes with --order random")
	}
	seed := f.seed
	if f.order == executor.OrderRandom && !seeded {
		seed = uint64(rand.Uint32()) // small enough to type back in
	}
	return executor.ParseOrder(f.order, seed)
}

// given reports whether --order was on the command line.
func (f *orderFlags) given(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == "order" })
	return set
}

// reportOrder is o as the report records it.
func reportOrder(o executor.Order) *report.Order {
	out := &report.Order{Kind: o.Kind}
	if o.Kind == executor.OrderRandom || o.Kind == executor.OrderPaired || o.Kind == executor.OrderDuet {
		seed := o.Seed
		out.Seed = &seed
	}
	return out
}

// announceBatch says, before a batch that is not the whole plan in the
// declared order, which part it runs and in what order.
func announceBatch(w io.Writer, p *plan.Plan, o executor.Order) {
	if s := p.Shard; s != nil {
		fmt.Fprintf(w, "# Shard %s: %d of %d runs, estimated %s\n", s, len(p.Runs), len(s.PlannedRuns), p.Estimate.Round(time.Second))
	}
	switch o.Kind {
	case executor.OrderInterleaved:
		fmt.Fprintf(w, "# Order: interleaved (round-robin over the runs, fork by fork)\n")
	case executor.OrderRandom:
		fmt.Fprintf(w, "# Order: random, seed %d (--order random --seed %d repeats it)\n", o.Seed, o.Seed)
	}
}
