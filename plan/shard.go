package plan

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/spec"
)

// Sharding splits a plan over n machines without a scheduler of its own:
// every machine builds the same plan from the same specs and runs its
// part, which the shard's number alone decides. Whatever places the
// shards — a Kubernetes Indexed Job, a CI matrix, any batch system with
// a task index — needs to hand out nothing but that number.
//
// The parts are balanced by estimated time: the runs, longest estimate
// first (ties by key), each go to the part with the least estimated time
// so far (ties to the lowest number) — greedy longest-processing-time,
// within 4/3 of the best possible balance. A run's forks stay together,
// so that a run is measured on one machine. Within a part the runs keep
// their plan order.

// ShardInfo identifies the part of a plan that a sharded batch runs. It
// carries what is needed to prove, when the parts' reports are merged,
// that they are the parts of one plan and that none is missing.
type ShardInfo struct {
	// Index is the part's 1-based number, of Count.
	Index int `json:"index"`
	Count int `json:"count"`
	// PlanSHA256 is the whole plan's SHA256.
	PlanSHA256 string `json:"plan_sha256"`
	// PlannedRuns are the keys of every run of the whole plan, in plan
	// order.
	PlannedRuns []string `json:"planned_runs"`
}

// String is "2/4".
func (s *ShardInfo) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads a shard as "i/n": part i (1-based) of n.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(a)
	}
	if ok && err == nil {
		n, err = strconv.Atoi(b)
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("invalid shard %q: want i/n, such as 2/4 (the second of four parts)", s)
	}
	return i, n, checkShard(i, n)
}

func checkShard(i, n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("invalid shard count %d: want at least 1", n)
	case i < 1 || i > n:
		return fmt.Errorf("invalid shard %d/%d: the shard is numbered from 1 to %d", i, n, n)
	}
	return nil
}

// Shard returns part i (1-based) of n of p: the runs Assign gives it, in
// plan order and numbered anew from 0, with their estimate, and the
// part's Shard set. The parts of n are disjoint and together hold every run of p; a
// part may be empty when n exceeds the number of runs.
func Shard(p *Plan, i, n int) (*Plan, error) {
	if err := checkShard(i, n); err != nil {
		return nil, err
	}
	if p.Shard != nil {
		return nil, fmt.Errorf("plan is already shard %s", p.Shard)
	}
	part := &Plan{Suite: p.Suite, Specs: p.Specs, Runs: []Run{}, Shard: &ShardInfo{
		Index: i, Count: n, PlanSHA256: p.SHA256(), PlannedRuns: make([]string, len(p.Runs)),
	}}
	for j, shard := range Assign(p, n) {
		part.Shard.PlannedRuns[j] = p.Runs[j].Key
		if shard != i {
			continue
		}
		r := p.Runs[j]
		r.Index = len(part.Runs)
		part.Runs = append(part.Runs, r)
		part.Estimate = satAdd(part.Estimate, r.Estimate)
	}
	return part, nil
}

// Assign returns for each run of p the part (1-based) of n that runs it,
// by greedy longest-processing-time over the runs' estimates.
func Assign(p *Plan, n int) []int {
	order := make([]int, len(p.Runs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ra, rb := &p.Runs[a], &p.Runs[b]
		return cmp.Or(cmp.Compare(rb.Estimate, ra.Estimate), strings.Compare(ra.Key, rb.Key))
	})
	load := make([]time.Duration, n)
	out := make([]int, len(p.Runs))
	for _, j := range order {
		least := 0
		for k := 1; k < n; k++ {
			if load[k] < load[least] {
				least = k
			}
		}
		load[least] = satAdd(load[least], p.Runs[j].Estimate)
		out[j] = least + 1
	}
	return out
}

// SHA256 is the identity of a plan's runs: the SHA-256 of their keys,
// benchmarks, params, modes and settings in order. Spec paths are not
// part of it (a journal records the specs' own hashes), nor is sharding:
// a part has the SHA256 of its own runs and records the whole plan's.
func (p *Plan) SHA256() string {
	type runID struct {
		Key       string        `json:"key"`
		Benchmark string        `json:"benchmark"`
		Params    []Param       `json:"params"`
		Mode      spec.Mode     `json:"mode"`
		Settings  spec.Settings `json:"settings"`
	}
	ids := make([]runID, len(p.Runs))
	for i, r := range p.Runs {
		ids[i] = runID{r.Key, r.Benchmark, r.Params, r.Mode, r.Settings}
	}
	data, _ := json.Marshal(ids)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
