package format

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/explain"
	"github.com/benchspec/benchspec/report/history"
	"github.com/benchspec/benchspec/report/history/historytest"
	"github.com/benchspec/benchspec/report/reporttest"
)

// subject is one thing a format may render, and its golden file's
// name: testdata/NAME.FORMAT.golden.
type subject struct {
	name string
	// render renders the subject in f; ok is false when f cannot.
	render func(f any, w io.Writer) (ok bool, err error)
}

// readReport reads a report of report/compare's fixtures.
func readReport(t *testing.T, name string) *report.Report {
	t.Helper()
	rep, err := report.ReadFile(filepath.Join("..", "compare", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// comparison compares two of report/compare's fixtures as compare does,
// with a run of one side only.
func comparison(t *testing.T, base, next string) *compare.Result {
	res := compare.Compare(readReport(t, base), readReport(t, next), compare.Options{Threshold: 0.05})
	res.BaseName, res.NewName = base, next
	res.OnlyNew = []compare.Run{{Key: "empty#avgt", Benchmark: "empty", Mode: "avgt"}}
	return res
}

// plantedHistory is 12 nights of report/history's real report, its
// first run 8 % slower from the 7th night on; dir holds them.
func plantedHistory(t *testing.T) (h *history.History, dir string) {
	n, err := historytest.FromFile(filepath.Join("..", "history", "testdata", "real-report.json"), 2, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if err := n.Planted(dir, time.Date(2026, 1, 15, 2, 30, 0, 0, time.UTC), 12, 7, 1.08); err != nil {
		t.Fatal(err)
	}
	read, err := history.Read([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	h = history.Build(read)
	history.Analyze(h, history.Options{})
	return h, dir
}

// subjects are a report, comparisons (3 forks a side: the rank test
// keeps the +30 % inconclusive and says how many forks it needs; 5: a
// regression), ab's output and a history: each thing a format renders.
func subjects(t *testing.T) []subject {
	rep := report.Build(reporttest.Fixture())
	res, res5 := comparison(t, "base.json", "slow.json"), comparison(t, "base5.json", "slow5.json")
	explainFirstChanges(res5)
	// ab's output holds both reports: small ones keep its goldens short.
	edges := report.Build(reporttest.EdgeScores())
	ab := compare.Compare(edges, edges, compare.Options{Threshold: 0.05})
	ab.BaseName, ab.NewName = "HEAD~1", "."
	h, dir := plantedHistory(t)
	return []subject{
		{"report", as(func(r Renderer, w io.Writer) error { return r.Render(w, rep) })},
		{"comparison", as(func(r ComparisonRenderer, w io.Writer) error { return r.Comparison(w, res) })},
		{"comparison5", as(func(r ComparisonRenderer, w io.Writer) error { return r.Comparison(w, res5) })},
		{"ab", as(func(r ABRenderer, w io.Writer) error { return r.AB(w, ab, edges, edges) })},
		{"history", as(func(r HistoryRenderer, w io.Writer) error {
			var b strings.Builder // the reports' paths vary
			err := r.History(&b, h)
			io.WriteString(w, strings.ReplaceAll(b.String(), dir, "DIR"))
			return err
		})},
	}
}

// as makes render a subject's render for the formats that are a T.
func as[T any](render func(T, io.Writer) error) func(any, io.Writer) (bool, error) {
	return func(f any, w io.Writer) (bool, error) {
		r, ok := f.(T)
		if !ok {
			return false, nil
		}
		return true, render(r, w)
	}
}

// TestEveryFormatHasItsFileAndGoldens keeps ARCHITECTURE's recipe for a
// format true: each format of Builtin is a type in the file of its name
// that renders at least one thing, and for each thing it renders there
// is a golden file that its output matches (go test -update writes it).
func TestEveryFormatHasItsFileAndGoldens(t *testing.T) {
	subjects := subjects(t)
	for name, f := range Builtin() {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(name + ".go"); err != nil {
				t.Errorf("format %s is not in %s.go: %v", name, name, err)
			}
			rendered := 0
			for _, s := range subjects {
				var b strings.Builder
				ok, err := s.render(f, &b)
				if !ok {
					continue
				}
				rendered++
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				reporttest.Golden(t, s.name+"."+name+".golden", b.String())
			}
			if rendered == 0 {
				t.Errorf("format %s renders nothing", name)
			}
		})
	}
}

// explainFirstChanges gives res's pairs each form --explain adds under
// the table: the first change a function list, the next two pairs a
// list within the sampling error and a note (for the goldens' sake;
// ab gives them to changes only).
func explainFirstChanges(res *compare.Result) {
	i := slices.IndexFunc(res.Pairs, func(p compare.Pair) bool { return p.Verdict == compare.Regression })
	res.Pairs[i].Where = &explain.Explanation{BaseSamples: 240, NewSamples: 262, BaseTotal: 960, NewTotal: 1052, Threshold: 2.94,
		BaseProfile: "prof/run.base.pprof", NewProfile: "prof/run.new.pprof",
		Funcs: []explain.Func{
			{Name: "main.plantedExtra", NewFlat: 87.5, NewCum: 87.5, DeltaFlat: 87.5, DeltaCum: 87.5, Share: 0.0911, Z: 5.2},
			{Name: "example.com/a/very/long/import/path/of/a/package/deep/inside/a/module.(*Decoder).readTheNextTokenSlowly", BaseFlat: 20, NewFlat: 31, BaseCum: 40, NewCum: 52, DeltaFlat: 11, DeltaCum: 12, Share: 0.0115, Z: 3.1},
		}}
	res.Pairs[(i+1)%len(res.Pairs)].Where = &explain.Explanation{BaseSamples: 150, NewSamples: 151, BaseTotal: 960, NewTotal: 980, Threshold: 2.9, WithinNoise: true, Funcs: []explain.Func{}}
	res.Pairs[(i+2)%len(res.Pairs)].WhereNote = "the base side's forks kept no CPU profile"
}
