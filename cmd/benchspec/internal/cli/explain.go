package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/explain"
)

// explainTop is the most functions a run's "where" names: a few lines
// under the table.
const explainTop = 5

// ExplainPairs fills Where of each regression and improvement of res
// from the CPU profiles the two reports' measured forks kept: each
// side's merged, then compared function by function (report/explain).
// With dir set, each run's merged profiles are written there,
// <run>.base.pprof and <run>.new.pprof, for go tool pprof -diff_base.
// An unchanged or inconclusive run says nothing: no list of noise.
func ExplainPairs(res *compare.Result, base, next *report.Report, dir string) error {
	if dir != "" {
		abs, err := filepath.Abs(dir) // the JSON names files any directory can open
		if err == nil {
			err = os.MkdirAll(abs, 0o755)
		}
		if err != nil {
			return fmt.Errorf("--profiles: %w", err)
		}
		dir = abs
	}
	for i := range res.Pairs {
		pr := &res.Pairs[i]
		if pr.Verdict != compare.Regression && pr.Verdict != compare.Improvement {
			continue
		}
		var sides [2]explain.Side
		for j, rep := range []*report.Report{base, next} {
			files, ops := cpuProfiles(rep, pr.Key)
			if len(files) == 0 {
				pr.WhereNote = fmt.Sprintf("the %s side's forks kept no CPU profile (run with --explain, or profilers: [cpu] and --profiles)", [2]string{"base", "new"}[j])
				break
			}
			p, err := explain.Merge(files)
			if err != nil {
				pr.WhereNote = err.Error()
				break
			}
			sides[j] = explain.Side{Profile: p, Ops: ops}
		}
		if pr.WhereNote != "" {
			continue
		}
		e, err := explain.Explain(sides[0], sides[1], explainTop)
		if err != nil {
			pr.WhereNote = err.Error()
			continue
		}
		if dir != "" {
			name := filepath.Join(dir, protocol.ProfileBase(pr.Key))
			e.BaseProfile, e.NewProfile = name+".base.pprof", name+".new.pprof"
			for j, path := range []string{e.BaseProfile, e.NewProfile} {
				if err := explain.WriteMerged(path, sides[j].Profile); err != nil {
					return fmt.Errorf("--profiles: %w", err)
				}
			}
		}
		pr.Where = &e
	}
	return nil
}

// cpuProfiles are the CPU profiles of the measured forks of run key in
// rep, and the operations their iterations counted (a CPU profile
// covers every iteration of its fork, warmup too).
func cpuProfiles(rep *report.Report, key string) (files []string, ops float64) {
	i := slices.IndexFunc(rep.Runs, func(r report.Run) bool { return r.Key == key })
	if i < 0 {
		return nil, 0
	}
	for _, f := range rep.Runs[i].Forks {
		path := f.Profiles["cpu"]
		if f.Warmup || path == "" {
			continue
		}
		files = append(files, path)
		for _, it := range f.Iterations {
			ops += float64(it.Ops)
		}
	}
	return files, ops
}

// forkProfileDir is where ab's forks write their CPU profiles: nowhere
// without --explain; under --profiles DIR (DIR/forks), kept; else a
// private directory that cleanup removes.
func forkProfileDir(explaining bool, keep string) (dir string, cleanup func(), err error) {
	switch {
	case !explaining:
		return "", func() {}, nil
	case keep != "":
		abs, err := filepath.Abs(keep)
		if err == nil {
			err = NewOrEmptyDir(abs)
		}
		if err != nil {
			return "", nil, err
		}
		dir = filepath.Join(abs, "forks")
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	dir, err = os.MkdirTemp("", "benchspec-profiles-")
	return dir, func() { os.RemoveAll(dir) }, err
}

// forgetProfiles drops the forks' profile files from reports whose
// profiles are about to be removed.
func forgetProfiles(reps ...*report.Report) {
	for _, rep := range reps {
		for i := range rep.Runs {
			for j := range rep.Runs[i].Forks {
				rep.Runs[i].Forks[j].Profiles = nil
			}
		}
	}
}

// NewOrEmptyDir refuses a --profiles directory that holds anything: the
// profiles written there must not meet, or replace, another batch's.
func NewOrEmptyDir(dir string) error {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty; give a new or empty directory", dir)
	}
	return nil
}
