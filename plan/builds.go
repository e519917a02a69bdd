package plan

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/benchspec/benchspec/spec"
)

// A spec's builds are a dimension of its plan, as params are: every run
// its entries select is measured once per build, in the binary of that
// build (Benchmark.Build and Executable, which the caller builds and
// lists per build). The build is named among the run's params as
// "build", so that a key, a report's params column and a gobench name
// (benchstat -col /build) tell the builds apart exactly as they tell
// params apart; the fork, which has only the one binary, is not told.

// BuildParam is the parameter that names a run's build.
const BuildParam = "build"

// buildNames are the names of the spec's builds; one "" (the suite as
// given) when it has none.
func buildNames(s *spec.Spec) []string {
	if len(s.Builds) == 0 {
		return []string{""}
	}
	names := make([]string, len(s.Builds))
	for i, b := range s.Builds {
		names[i] = b.Name
	}
	return names
}

// withBuild is params with the build's parameter in its sorted place; a
// new slice, as params are shared between runs.
func withBuild(params []Param, build string) []Param {
	if build == "" {
		return params
	}
	i, _ := slices.BinarySearchFunc(params, BuildParam, func(p Param, name string) int { return cmp.Compare(p.Name, name) })
	out := make([]Param, 0, len(params)+1)
	out = append(out, params[:i]...)
	out = append(out, Param{Name: BuildParam, Value: build})
	return append(out, params[i:]...)
}

// benchmarkParams are the run's params as its benchmark declares them:
// without the build's.
func (r *Run) benchmarkParams() []Param {
	if r.Build == "" {
		return r.Params
	}
	return slices.DeleteFunc(slices.Clone(r.Params), func(p Param) bool { return p.Name == BuildParam })
}

// checkBuilt reports what an entry of a spec with builds cannot have:
// forks: 0, which runs in the batch's one process of the suite, of no
// build; and a selected benchmark with a parameter named like the
// build's.
func checkBuilt(s *spec.Spec, e *spec.Entry, matched []string, byName map[string]*Benchmark) spec.ErrorList {
	if len(s.Builds) == 0 {
		return nil
	}
	var errs spec.ErrorList
	if e.Settings.Forks == 0 {
		errs = append(errs, &spec.Error{Pos: settingPos(e, "forks"), Msg: fmt.Sprintf(
			"benchmarks[%d].forks: forks: 0 runs in one process of the suite as given, and this spec has builds: each build runs in forks of its own binary; use forks: 1 or more", e.Index)})
	}
	for _, m := range matched {
		if _, ok := byName[m].Params[BuildParam]; ok {
			errs = append(errs, &spec.Error{Pos: e.IncludePos, Msg: fmt.Sprintf(
				"benchmarks[%d].include: benchmark %q has a parameter %q, which in a spec with builds names the build; rename the parameter", e.Index, m, BuildParam)})
			break
		}
	}
	return errs
}

// sideBySide orders runs, the runs of one entry, so that the builds of
// each benchmark × params × mode sit together in the builds' order: in
// the order of the first build's runs, then those only later builds
// have.
func sideBySide(runs []Run) {
	base := make(map[*Run]string, len(runs))
	group := map[string]int{}
	for i := range runs {
		r := &runs[i]
		k := key(&Run{Benchmark: r.Benchmark, Params: r.benchmarkParams(), Mode: r.Mode, Settings: r.Settings})
		base[r] = k
		if _, ok := group[k]; !ok {
			group[k] = len(group)
		}
	}
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return group[base[&runs[a]]] - group[base[&runs[b]]] })
	sorted := make([]Run, len(runs))
	for i, j := range order {
		sorted[i] = runs[j]
	}
	copy(runs, sorted)
}

// PGOPath is the profile file of a build's pgo (spec.Build.PGOFile):
// the path as written, relative to the directory of the spec at
// specPath, made absolute, as go commands in other directories need it.
func PGOPath(specPath, pgo string) string {
	path := filepath.Join(filepath.Dir(specPath), pgo)
	if filepath.IsAbs(pgo) {
		path = pgo
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// distinct is errs without the repeats of an error.
func distinct(errs spec.ErrorList) spec.ErrorList {
	seen := map[spec.Error]bool{}
	return slices.DeleteFunc(errs, func(e *spec.Error) bool {
		dup := seen[*e]
		seen[*e] = true
		return dup
	})
}
