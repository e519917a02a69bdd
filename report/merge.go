package report

import (
	"fmt"
	"strings"

	"github.com/benchspec/benchspec/plan"
)

// Named is a report with the name it goes by in messages, such as the
// path it was read from.
type Named struct {
	Name   string
	Report *Report
}

// Collision is a run key present in two reports that are merged.
type Collision struct {
	Key           string
	First, Second string // names of the reports that both hold the key
}

// MergeError is the error of a merge that would lose runs: every key
// that more than one input holds.
type MergeError struct {
	Collisions []Collision
}

// Error lists every collision, one per line.
func (e *MergeError) Error() string {
	lines := make([]string, len(e.Collisions))
	for i, c := range e.Collisions {
		lines[i] = fmt.Sprintf("run %q is in both %s and %s", c.Key, c.First, c.Second)
	}
	return "report: cannot merge: " + strings.Join(lines, "\n")
}

// Merge combines reports of disjoint runs — the shards of one plan, or
// the reports of several specs — into one, runs in input order. A key
// that two inputs hold is a collision: a *MergeError lists them all and
// there is no report, because keeping either run would drop a
// measurement silently. Specs, sources, suite names and labels are
// united; Env is the first input's with the earliest Start and latest
// End, and inputs measured on another machine or toolchain merge with a
// warning each. Shards merge into the whole plan's report, in plan
// order, only when they are parts of one plan (else *ShardError); missing
// parts or runs give an *IncompleteError with the report marked
// incomplete (shards.go).
func Merge(inputs []Named) (*Report, []string, error) {
	if len(inputs) == 0 {
		return nil, nil, fmt.Errorf("report: nothing to merge")
	}
	planned, incomplete, err := checkShards(inputs)
	if err != nil {
		return nil, nil, err
	}
	if err := checkCollisions(inputs); err != nil {
		return nil, nil, err
	}
	first := inputs[0].Report
	out := &Report{SchemaVersion: SchemaVersion, Complete: true, Env: first.Env, Specs: []plan.SpecRef{}, Order: sameOrder(inputs), Runs: []Run{}}
	var suites, labels, warnings []string
	seenSpec, seenSuite, seenLabel, seenSource, seenBuild := map[plan.SpecRef]bool{}, map[string]bool{}, map[string]bool{}, map[Source]bool{}, map[BuildInfo]bool{}
	for _, in := range inputs {
		r := in.Report
		out.Complete = out.Complete && r.Complete
		out.Runs = append(out.Runs, r.Runs...)
		for _, s := range r.Specs {
			if !seenSpec[s] {
				seenSpec[s] = true
				out.Specs = append(out.Specs, s)
			}
		}
		if !seenSuite[r.Suite] {
			seenSuite[r.Suite] = true
			suites = append(suites, r.Suite)
		}
		if r.Label != "" && !seenLabel[r.Label] {
			seenLabel[r.Label] = true
			labels = append(labels, r.Label)
		}
		for _, src := range r.Sources {
			if !seenSource[src] {
				seenSource[src] = true
				out.Sources = append(out.Sources, src)
			}
		}
		for _, b := range r.Builds {
			if !seenBuild[b] {
				seenBuild[b] = true
				out.Builds = append(out.Builds, b)
			}
		}
		if r.Env.Start.Before(out.Env.Start) {
			out.Env.Start = r.Env.Start
		}
		if r.Env.End.After(out.Env.End) {
			out.Env.End = r.Env.End
		}
		if d := envDifference(&first.Env, &r.Env); d != "" {
			warnings = append(warnings, fmt.Sprintf("%s was measured elsewhere than %s: %s", in.Name, inputs[0].Name, d))
		}
	}
	out.Suite = strings.Join(suites, "+")
	out.Label = strings.Join(labels, "+")
	if planned != nil {
		inPlanOrder(out.Runs, planned)
	}
	if incomplete != nil {
		out.Complete = false
		return out, warnings, incomplete
	}
	return out, warnings, nil
}

func checkCollisions(inputs []Named) error {
	owner := map[string]string{}
	var e MergeError
	for _, in := range inputs {
		for _, run := range in.Report.Runs {
			if first, ok := owner[run.Key]; ok {
				e.Collisions = append(e.Collisions, Collision{Key: run.Key, First: first, Second: in.Name})
				continue
			}
			owner[run.Key] = in.Name
		}
	}
	if len(e.Collisions) > 0 {
		return &e
	}
	return nil
}

// envDifference names what differs between two environments that makes
// their numbers incomparable; "" when nothing does.
func envDifference(a, b *Env) string {
	var diffs []string
	for _, f := range []struct{ name, a, b string }{
		{"goos", a.GOOS, b.GOOS}, {"goarch", a.GOARCH, b.GOARCH}, {"cpu", a.CPU, b.CPU},
		{"go", a.GoVersion, b.GoVersion}, {"benchspec", a.ToolVersion, b.ToolVersion},
	} {
		if f.a != f.b {
			diffs = append(diffs, fmt.Sprintf("%s %q, not %q", f.name, f.b, f.a))
		}
	}
	return strings.Join(diffs, ", ")
}
