package format_test

import (
	"bytes"
	"io"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/benchspec/benchspec/internal/format"
	"github.com/benchspec/benchspec/internal/format/html"
	"github.com/benchspec/benchspec/internal/reporttest"
	"github.com/benchspec/benchspec/report"
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
//	go test -fuzz=FuzzRead -fuzztime=3m ./internal/format
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
		for _, name := range format.Names() {
			r, err := format.New(name)
			if err != nil {
				t.Fatal(err)
			}
			r.Render(io.Discard, rep) // an error is fine; a panic is not
		}
		html.Renderer{}.Render(io.Discard, rep)
	})
}

// sameFloat treats every NaN (null) as equal.
func sameFloat(a, b report.Float) bool {
	return a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b))
}
