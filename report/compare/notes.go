package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
)

// envNotes are the notes of a comparison whose sides were measured in
// different environments — another CPU, Go version, OS or architecture,
// number of CPUs or GOMAXPROCS — or of which a side is incomplete (its
// batch stopped before every planned run had run). Neither changes a
// verdict, which compares the numbers as they are; but a change may be
// the environment's rather than the code's, and a run missing from an
// incomplete side is listed rather than compared.
func envNotes(base, new *report.Report) []string {
	var notes, diffs []string
	b, n := &base.Env, &new.Env
	for _, d := range []struct {
		what string
		b, n any
	}{
		{"CPU", b.CPU, n.CPU},
		{"Go version", b.GoVersion, n.GoVersion},
		{"OS", b.GOOS, n.GOOS},
		{"architecture", b.GOARCH, n.GOARCH},
		{"CPU count", b.NumCPU, n.NumCPU},
		{"GOMAXPROCS", b.GOMAXPROCS, n.GOMAXPROCS},
	} {
		if d.b != d.n {
			diffs = append(diffs, fmt.Sprintf("%s %v in base, %v in new", d.what, d.b, d.n))
		}
	}
	if len(diffs) > 0 {
		notes = append(notes, "the sides ran in different environments ("+strings.Join(diffs, "; ")+"): a difference may be the environment's, not the code's")
	}
	var incomplete []string
	for _, s := range []struct {
		name string
		r    *report.Report
	}{{"base", base}, {"new", new}} {
		if !s.r.Complete {
			incomplete = append(incomplete, s.name)
		}
	}
	if len(incomplete) > 0 {
		notes = append(notes, strings.Join(incomplete, " and ")+" is incomplete (complete: false): its batch stopped before every planned run had run, so a run missing from it is listed, not compared")
	}
	return notes
}

// driftText is the note of every comparison of two batches: what its
// intervals leave out, measured, and what to run instead.
const driftText = "these are two batches: the intervals count how forks vary within a batch, not how one batch drifts from the next (one build measured twice, a minute apart, read −2.6 % ± 0.9 %); to judge two builds, run them in one batch with benchspec ab"

// driftNote is driftText unless both reports came from one ab batch
// (their order paired or duet), whose forks ran in the same seconds.
func driftNote(base, new *report.Report) string {
	paired := func(r *report.Report) bool {
		return r.Order != nil && (r.Order.Kind == "paired" || r.Order.Kind == "duet")
	}
	if paired(base) && paired(new) {
		return ""
	}
	return driftText
}

// complexityNotes say where a complexity fit's class differs between
// the sides (a fit matched by benchmark, mode, n and its other params
// but a build's): "linear avgt: complexity n in base, n^2 in new (…)".
func complexityNotes(base, new *report.Report) []string {
	key := func(c *report.Complexity) string {
		others := maps.Clone(c.Params)
		delete(others, plan.BuildParam)
		return fmt.Sprint(c.Benchmark, c.Mode, c.Param, others)
	}
	inBase := map[string]report.Complexity{}
	for _, c := range report.Fits(base.Runs) {
		inBase[key(&c)] = c
	}
	var notes []string
	for _, c := range report.Fits(new.Runs) {
		if b, ok := inBase[key(&c)]; ok && b.Class != c.Class {
			label := c.Benchmark
			for _, k := range slices.Sorted(maps.Keys(c.Params)) {
				label += " " + k + "=" + c.Params[k]
			}
			notes = append(notes, fmt.Sprintf("%s %s: complexity %s in base, %s in new (base: %s; new: %s)",
				label, c.Mode, b.Class, c.Class, b.Summary(), c.Summary()))
		}
	}
	return notes
}
