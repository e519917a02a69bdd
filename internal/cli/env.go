package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// checkForkEnv checks, once per spec entry, what the schema cannot say
// about the environment of the entry's forks: that every variable name
// can be set (not empty, no '=' or NUL), and the resource limits the
// executor reads from it (BENCHSPEC_RLIMIT_*), so that a bad value is
// refused before anything runs. Errors are at the entry's position.
func checkForkEnv(p *plan.Plan, specs []*spec.Spec) error {
	byPath := map[string]*spec.Spec{}
	for _, s := range specs {
		byPath[s.Path] = s
	}
	type entryID struct {
		spec  string
		entry int
	}
	seen := map[entryID]bool{}
	var errs spec.ErrorList
	for i := range p.Runs {
		r := &p.Runs[i]
		if seen[entryID{r.Spec, r.Entry}] {
			continue
		}
		seen[entryID{r.Spec, r.Entry}] = true
		pos := spec.Pos{File: r.Spec, Line: 1, Col: 1}
		if s := byPath[r.Spec]; s != nil && r.Entry < len(s.Entries) {
			pos = s.Entries[r.Entry].Pos
		}
		report := func(format string, args ...any) {
			errs = append(errs, &spec.Error{Pos: pos, Msg: fmt.Sprintf("benchmarks[%d].", r.Entry) + fmt.Sprintf(format, args...)})
		}
		names := make([]string, 0, len(r.Settings.Env))
		for k := range r.Settings.Env {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				report("env: invalid variable name %q: it must not be empty or contain '='", k)
			}
		}
		if err := executor.CheckEnv(r.Settings.Env); err != nil {
			report("%v", err)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
