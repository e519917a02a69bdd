package compare

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/spec"
)

// TestCompareNotesEnvironmentAndIncomplete: reports from another CPU or
// Go version, or an incomplete batch, are compared with a note that
// says so, in every format; alike and complete reports get none.
func TestCompareNotesEnvironmentAndIncomplete(t *testing.T) {
	base, next := load(t, baseFile), load(t, rerunFile)
	for _, n := range Compare(base, next, Options{Threshold: 0.05}).Notes {
		if strings.Contains(n, "environments") || strings.Contains(n, "incomplete") {
			t.Errorf("alike reports: note %q", n)
		}
	}
	next.Env.CPU, next.Env.GoVersion = "Other CPU @ 5.00GHz", "go1.99.0"
	next.Complete = false
	res := Compare(base, next, Options{Threshold: 0.05})
	var text bytes.Buffer
	if err := Write(&text, res, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"the sides ran in different environments (CPU " + base.Env.CPU + " in base, Other CPU @ 5.00GHz in new; Go version " + base.Env.GoVersion + " in base, go1.99.0 in new)",
		"new is incomplete (complete: false)",
	} {
		if !strings.Contains(strings.Join(res.Notes, "\n"), want) || !strings.Contains(text.String(), want) {
			t.Errorf("notes %q and text output lack %q", res.Notes, want)
		}
	}
}

// TestCompareNotesAChangedComplexity: a sweep classed n in base and n^2
// in new gets a note; the same class on both sides gets none.
func TestCompareNotesAChangedComplexity(t *testing.T) {
	sweep := func(power float64) *report.Report {
		cost := func(n float64) float64 { return math.Pow(n, power) }
		r := &report.Report{}
		for _, n := range []float64{100, 200, 400, 800, 1600} {
			r.Runs = append(r.Runs, report.Run{Key: fmt.Sprint(n), Benchmark: "s", Mode: spec.ModeAverageTime,
				Params: map[string]string{"n": fmt.Sprint(n)}, Status: report.StatusOK,
				Settings: spec.Settings{TimeUnit: "ns", Complexity: "auto"},
				Primary:  &report.Metric{Score: report.Float(cost(n)), ScoreError: report.Float(cost(n) / 100)}})
		}
		return r
	}
	if notes := complexityNotes(sweep(1), sweep(1)); len(notes) != 0 {
		t.Errorf("one class on both sides: notes %q", notes)
	}
	notes := complexityNotes(sweep(1), sweep(2))
	if want := "s avgt: complexity n in base, n^2 in new"; len(notes) != 1 || !strings.HasPrefix(notes[0], want) {
		t.Errorf("notes %q, want one starting %q", notes, want)
	}
}
