package format_test

import (
	"bytes"
	"io"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/report/format/html"
	"github.com/benchspec/benchspec/report/reporttest"
)

// FuzzRead feeds Read, the reader behind `benchspec report` and
// `compare`, arbitrary bytes. Whatever it accepts must survive a round
// trip through the JSON renderer unchanged (JSON is the lossless format),
// and every renderer must cope with it without panicking: a report file
// is input like any other.
//
// The seeds (the fixture's report and testdata/fuzz/FuzzRead) run with
// every go test; fuzz with
//
//	go test -fuzz=FuzzRead -fuzztime=3m ./report/format
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	p, forks, env := reporttest.Fixture()
	if err := report.Write(&buf, report.Build(p, forks, env)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := report.Read(bytes.NewReader(data))
		if err != nil {
			if rep != nil {
				t.Fatal("Read returned a report and an error")
			}
			return
		}
		var out bytes.Buffer
		if err := report.Write(&out, rep); err != nil {
			t.Fatalf("writing back what Read accepted: %v", err)
		}
		again, err := report.Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("reading back what was written: %v\n%s", err, out.Bytes())
		}
		// Empty and absent maps and lists are the same report.
		if diff := cmp.Diff(rep, again, cmp.Comparer(sameFloat), cmpopts.EquateNaNs(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("the JSON round trip changed the report (-read +round trip):\n%s", diff)
		}
		for _, f := range format.Builtin() {
			if r, ok := f.(format.Renderer); ok {
				r.Render(io.Discard, rep) // an error is fine; a panic is not
			}
		}
		html.Renderer{}.Render(io.Discard, rep)
	})
}

// sameFloat treats every NaN (null) as equal.
func sameFloat(a, b report.Float) bool {
	return a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b))
}

// FuzzRenderNumbers puts arbitrary numbers — huge, tiny, negative, NaN,
// ±Inf — into the fixture report's scores, errors, iteration scores and
// histogram, and renders it with every renderer, HTML and its charts
// included: none may panic or fail (gonum/plot panicked on scores near
// 1e200 and looped forever on an error near the largest float64). The
// seeds run with every go test; fuzz with
//
//	go test -fuzz=FuzzRenderNumbers -fuzztime=3m ./report/format
func FuzzRenderNumbers(f *testing.F) {
	for _, seed := range [][3]float64{
		{1, 0.1, 1}, {1e200, 1, 1e200}, {1, 1.7e308, 1}, {1.7e308, 1.7e308, -1.7e308},
		{math.NaN(), math.Inf(1), math.Inf(-1)}, {-1, -1, 0}, {5e-324, 5e-324, 5e-324}, {0, 0, 0},
		{1e100, 1e100, 1e100}, {-1e300, 1e-300, 1e300},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	p, forks, env := reporttest.Fixture()
	f.Fuzz(func(t *testing.T, score, scoreErr, it float64) {
		rep := report.Build(p, forks, env)
		for i := range rep.Runs {
			run := &rep.Runs[i]
			if m := run.Primary; m != nil {
				m.Score, m.ScoreError = report.Float(score), report.Float(scoreErr)
				m.ScoreConfidence = [2]report.Float{report.Float(score - scoreErr), report.Float(score + scoreErr)}
				m.Min, m.Max, m.Stdev = report.Float(it), report.Float(score), report.Float(scoreErr)
				if h := m.Histogram; h != nil {
					for j := range h.Bins {
						h.Bins[j].Value = report.Float(it * float64(j+1))
					}
					h.Min, h.Max = report.Float(it), report.Float(score)
				}
			}
			for fi := range run.Forks {
				for j := range run.Forks[fi].Iterations {
					run.Forks[fi].Iterations[j].Score = report.Float(it * float64(j+1))
				}
			}
		}
		for name, f := range format.Builtin() {
			r, ok := f.(format.Renderer)
			if !ok {
				continue
			}
			if err := r.Render(io.Discard, rep); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		if err := (html.Renderer{}).Render(io.Discard, rep); err != nil {
			t.Errorf("html: %v", err)
		}
	})
}
