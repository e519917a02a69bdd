package history

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/history/index"
)

// Dir is a suite's results directory, read.
type Dir struct {
	Path    string
	Entries []index.Entry // one per report, in the order the batches started
	// Stale is true when the directory's index should be rewritten with
	// Entries (index.Encode).
	Stale bool
}

// Read reads the results directories paths name. Each is a suite's
// results directory (run --results-dir DIR puts them in DIR/<suite>), or
// a results directory itself, whose suites' directories are then all
// read. A path without reports either way is an error, as is a report
// that cannot be read.
func Read(paths []string) ([]Dir, error) {
	var dirs []Dir
	for _, p := range paths {
		suites, err := suiteDirs(p)
		if err != nil {
			return nil, err
		}
		for _, s := range suites {
			entries, stale, err := index.Load(s)
			if err != nil {
				return nil, err
			}
			dirs = append(dirs, Dir{Path: s, Entries: entries, Stale: stale})
		}
	}
	return dirs, nil
}

// suiteDirs returns path when it holds reports, else its subdirectories
// that do.
func suiteDirs(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: give a results directory (run --results-dir DIR) or a suite's directory in it", path)
	}
	if n, err := countReports(path); err != nil || n > 0 {
		return []string{path}, err
	}
	des, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		sub := filepath.Join(path, de.Name())
		if n, err := countReports(sub); err != nil {
			return nil, err
		} else if n > 0 {
			out = append(out, sub)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no reports: it holds no <UTC start>.json files of run --results-dir, nor do its subdirectories", path)
	}
	return out, nil
}

func countReports(dir string) (int, error) {
	des, err := os.ReadDir(dir)
	n := 0
	for _, de := range des {
		if index.IsReport(de.Name()) {
			n++
		}
	}
	return n, err
}

// located is an entry with the directory it came from.
type located struct {
	dir string
	e   *index.Entry
}

// Build makes the history of the reports of dirs: its batches in the
// order they started, and a series per suite and run key, in suite order
// and then in the order the runs first appear. Change points are left to
// Analyze.
func Build(dirs []Dir) *History {
	var all []located
	for _, d := range dirs {
		for i := range d.Entries {
			all = append(all, located{d.Path, &d.Entries[i]})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].e, all[j].e
		if !a.Start.Equal(b.Start) {
			return a.Start.Before(b.Start)
		}
		if a.Suite != b.Suite {
			return a.Suite < b.Suite
		}
		return filepath.Join(all[i].dir, a.File) < filepath.Join(all[j].dir, b.File)
	})
	h := &History{SchemaVersion: SchemaVersion, Method: Method, Batches: []Batch{}, Series: []Series{}}
	b := builder{h: h, series: map[[2]string]int{}, open: map[string]*shardGroup{}}
	for _, l := range all {
		b.add(l)
	}
	b.finish()
	return h
}

type builder struct {
	h      *History
	series map[[2]string]int // by suite and run key
	raw    [][]rawPoint      // per series
	open   map[string]*shardGroup
}

// shardGroup is the batch that the shards of one plan are filling.
type shardGroup struct {
	batch int // index into h.Batches
	seen  map[int]bool
	count int
}

type rawPoint struct {
	Point
	unit string
}

func (b *builder) add(l located) {
	e := l.e
	bi := -1
	if sh := e.Shard; sh != nil {
		key := e.Suite + "\x00" + sh.PlanSHA256
		if g := b.open[key]; g != nil && g.count == sh.Count && !g.seen[sh.Index] {
			bi = g.batch
			g.seen[sh.Index] = true
		} else {
			b.open[key] = &shardGroup{batch: len(b.h.Batches), seen: map[int]bool{sh.Index: true}, count: sh.Count}
		}
	}
	if bi < 0 {
		bi = len(b.h.Batches)
		b.h.Batches = append(b.h.Batches, Batch{Number: bi + 1, Suite: e.Suite, Start: e.Start, Complete: true})
	}
	batch := &b.h.Batches[bi]
	batch.Files = append(batch.Files, filepath.Join(l.dir, e.File))
	batch.Complete = batch.Complete && e.Complete
	if batch.Revision == "" {
		batch.Revision, batch.RevisionTime = e.Revision, e.RevisionTime
	}
	if batch.Label == "" {
		batch.Label = e.Label
	}
	for _, r := range e.Runs {
		si := b.seriesOf(e.Suite, &r)
		if r.Status != report.StatusOK || !r.Score.Valid() {
			b.h.Series[si].FailedBatches = append(b.h.Series[si].FailedBatches, batch.Number)
			continue
		}
		b.raw[si] = append(b.raw[si], rawPoint{Point{Batch: batch.Number, Score: r.Score, Error: r.Error, Count: r.Count,
			Stdev: r.Stdev, Forks: r.Forks, ForkStdev: r.ForkStdev, ForkMedian: r.ForkMedian, ForkMAD: r.ForkMAD,
			Revision: e.Revision, Label: e.Label}, r.Unit})
	}
}

func (b *builder) seriesOf(suite string, r *index.Run) int {
	k := [2]string{suite, r.Key}
	if i, ok := b.series[k]; ok {
		return i
	}
	b.series[k] = len(b.h.Series)
	b.h.Series = append(b.h.Series, Series{Suite: suite, Key: r.Key, Benchmark: r.Benchmark, Params: r.Params,
		Mode: r.Mode, Threads: r.Threads, Points: []Point{}, FailedBatches: []int{}, ChangePoints: []ChangePoint{}})
	b.raw = append(b.raw, nil)
	return b.series[k]
}

// finish puts every series in the unit of its newest point, and the
// series in suite order.
func (b *builder) finish() {
	for i := range b.h.Series {
		s, raw := &b.h.Series[i], b.raw[i]
		if len(raw) > 0 {
			s.Unit = raw[len(raw)-1].unit
		}
		s.Better = compare.Better(s.Unit)
		for _, p := range raw {
			f, ok := compare.Conversion(p.unit, s.Unit)
			if !ok {
				s.OtherUnit++
				continue
			}
			scale := report.Float(f)
			p.Score, p.Error, p.Stdev, p.ForkStdev = p.Score*scale, p.Error*scale, p.Stdev*scale, p.ForkStdev*scale
			p.ForkMedian, p.ForkMAD = p.ForkMedian*scale, p.ForkMAD*scale
			s.Points = append(s.Points, p.Point)
		}
	}
	sort.SliceStable(b.h.Series, func(i, j int) bool { return b.h.Series[i].Suite < b.h.Series[j].Suite })
}
