// Package plan expands specs against the registered benchmarks into an
// ordered list of runs: benchmark × params × mode, and × build for a spec
// with builds (builds.go), each with its settings, forks and an estimated
// duration. It runs nothing.
//
// Order is deterministic: specs in the order given, entries in the order
// written, the benchmarks an entry selects sorted by name, then the
// entry's modes in the order written, then the parameter combinations
// (the cartesian product, parameter names sorted, the first name varying
// slowest, values in declared order), then the spec's builds in the
// order written.
package plan

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/benchspec/benchspec/spec"
)

// ForkOverhead is the planned cost of starting, calibrating and ending
// one fork, used in estimates.
const ForkOverhead = 50 * time.Millisecond

// A fork of a package benchmark (GoTest) is a process of the package's
// test binary: it costs GoTestForkOverhead more to start and end, and
// each timed iteration runs testing.B's b.N ramp (1, then growing up to
// 1.2 × the time) before the run that counts: GoTestRamp times its time.
// Without them an examples/gotest run estimated at 21 s took 38-41 s
// (forks of 0.8-1.7 s planned at 0.65 s; 2 CPUs shared with other work).
const (
	GoTestForkOverhead = 300 * time.Millisecond
	GoTestRamp         = 1.2
)

// Build expands specs against the registered benchmarks. Every problem is
// reported, as a spec.ErrorList with positions: an entry that selects
// nothing (with the closest registered names), a parameter that none of
// the selected benchmarks declares, group_threads that do not fit the
// groups selected (checkGroups).
//
// A group's run has Group, its members in declared order with their
// threads (the entry's group_threads, 1 for a member left out), and
// Settings.Threads their sum.
func Build(specs []*spec.Spec, registry []Benchmark) (*Plan, error) {
	scopes := scopesOf(registry)
	p := &Plan{}
	var errs spec.ErrorList
	// First what every entry selects, and how many runs that makes; then,
	// when all is well, the runs, in a slice allocated once (a Run
	// carries its Settings: growing the slice would copy a plan of
	// 100 000 runs over and over).
	type selection struct {
		spec    *spec.Spec
		entry   *spec.Entry
		build   string
		scope   *scope
		matched []string
		runs    int
	}
	sels := make([]selection, 0, entryCount(specs))
	// A large spec repeats its patterns: what an include and exclude
	// select among the registered benchmarks of a build is found once
	// per pair.
	selects := map[[3]string][]string{}
	total := 0
	for _, s := range specs {
		if p.Suite == "" {
			p.Suite = s.Name
		}
		p.Specs = append(p.Specs, SpecRef{Path: s.Path, SHA256: s.SHA256})
		builds := buildNames(s)
		for ei := range s.Entries {
			e := &s.Entries[ei]
			pkg := ""
			if e.Package != "" {
				pkg = PackageKey(s.Path, e.Package)
			}
			// An entry selects in every build; a build of which it
			// selects nothing (a benchmark behind a build tag) is left
			// out, unless every build is.
			var unmatched *spec.Error
			var entryErrs spec.ErrorList
			matchedAny := false
			for _, build := range builds {
				sc := scopes[scopeKey{build, pkg}]
				var matched []string
				var err *spec.Error
				pair := [3]string{build, e.Include, e.Exclude}
				switch m, ok := selects[pair]; {
				case e.Package != "" && sc == nil:
					err = noPackage(e)
				case e.Package != "":
					matched, err = matchGoTest(e, sc.sortedNames())
				case ok:
					matched = m
				default:
					if matched, err = match(e, sc.sortedNames()); err == nil {
						selects[pair] = matched
					}
				}
				if err != nil {
					unmatched = cmp.Or(unmatched, err)
					continue
				}
				matchedAny = true
				if perr := checkParams(e, matched, sc.byName); perr != nil {
					entryErrs = append(entryErrs, perr...)
					continue
				}
				terr := append(checkTesting(e, matched, sc.byName), checkBuilt(s, e, matched, sc.byName)...)
				terr = append(terr, checkGroups(e, matched, sc.byName)...)
				if terr = append(terr, checkComplexity(e, matched, sc.byName)...); terr != nil {
					entryErrs = append(entryErrs, terr...)
					continue
				}
				n := runCount(e, matched, sc.byName)
				if n > MaxRuns-total {
					entryErrs = append(entryErrs, tooManyRuns(e, n, total))
					continue
				}
				total += n
				sels = append(sels, selection{s, e, build, sc, matched, n})
			}
			if !matchedAny {
				entryErrs = append(entryErrs, unmatched)
			}
			errs = append(errs, distinct(entryErrs)...) // each build may find the problem
		}
	}
	if len(errs) == 0 {
		// Keys that repeat get their #n, in plan order.
		p.Runs = make([]Run, 0, total)
		seen := make(map[string]int, total)
		start := 0 // of the entry's runs
		for i, sel := range sels {
			e := sel.entry
			if i == 0 || sels[i-1].entry != e {
				start = len(p.Runs)
			}
			for _, name := range sel.matched {
				b := sel.scope.byName[name]
				combos := product(b.Params, e.Params)
				for _, mode := range e.Settings.Modes {
					for _, params := range combos {
						p.Runs = append(p.Runs, Run{
							Index:      len(p.Runs),
							Benchmark:  b.Name,
							GoTest:     b.GoTest,
							Params:     withBuild(params, sel.build),
							Mode:       mode,
							Settings:   e.Settings,
							Spec:       sel.spec.Path,
							Entry:      e.Index,
							Executable: b.Executable,
							Build:      sel.build,
						})
						r := &p.Runs[len(p.Runs)-1]
						r.Group, r.Settings.Threads = runGroup(b, &e.Settings)
						r.Key = key(r)
						if seen[r.Key]++; seen[r.Key] > 1 {
							r.Key += "#" + strconv.Itoa(seen[r.Key])
						}
						r.Estimate = estimate(r)
						p.Estimate = satAdd(p.Estimate, r.Estimate)
					}
				}
			}
			if sel.build != "" && (i+1 == len(sels) || sels[i+1].entry != e) {
				sideBySide(p.Runs[start:])
				for j := start; j < len(p.Runs); j++ {
					p.Runs[j].Index = j
				}
			}
		}
		if len(p.Runs) != total {
			panic(fmt.Sprintf("plan: %d runs where runCount counted %d", len(p.Runs), total))
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool {
			a, b := errs[i].Pos, errs[j].Pos
			if a.File != b.File {
				return a.File < b.File
			}
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, errs
	}
	return p, nil
}

// entryCount is the number of entries of specs.
func entryCount(specs []*spec.Spec) int {
	n := 0
	for _, s := range specs {
		n += len(s.Entries)
	}
	return n
}

// match returns the registered names an entry selects, like go test
// -bench: unanchored RE2 unless anchored, minus the exclude pattern.
func match(e *spec.Entry, names []string) ([]string, *spec.Error) {
	if name, ok := spec.LiteralName(e.Include); ok && e.Exclude == "" {
		// The usual entry of a large spec names one benchmark: found by
		// binary search, without compiling a regexp.
		if i, found := slices.BinarySearch(names, name); found {
			return names[i : i+1], nil
		}
	}
	inc, err := regexp.Compile(e.Include)
	if err != nil {
		return nil, &spec.Error{Pos: e.IncludePos, Msg: fmt.Sprintf("include: invalid regexp: %v", err)}
	}
	var exc *regexp.Regexp
	if e.Exclude != "" {
		if exc, err = regexp.Compile(e.Exclude); err != nil {
			return nil, &spec.Error{Pos: e.ExcludePos, Msg: fmt.Sprintf("exclude: invalid regexp: %v", err)}
		}
	}
	var out []string
	for _, n := range candidates(e.Include, inc, names) {
		if inc.MatchString(n) && (exc == nil || !exc.MatchString(n)) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		what := "registered benchmark"
		if e.Package != "" {
			what = fmt.Sprintf("benchmark of package %s", e.Package)
		}
		msg := fmt.Sprintf("include %s matches no %s", e.QuotedInclude(), what)
		if e.Exclude != "" {
			msg = fmt.Sprintf("include %s with exclude %s matches no %s", e.QuotedInclude(), e.QuotedExclude(), what)
		}
		if c := closest(e.Include, names, 3); len(c) > 0 {
			msg += "; closest: " + strings.Join(c, ", ")
		} else {
			msg += " (no suite given: name the suite binary or its main package with --suite)"
		}
		return nil, &spec.Error{Pos: e.IncludePos, Msg: msg}
	}
	return out, nil
}

// checkParams reports the entry's parameters that none of the selected
// benchmarks declares.
func checkParams(e *spec.Entry, matched []string, byName map[string]*Benchmark) spec.ErrorList {
	var errs spec.ErrorList
	for name := range e.Params {
		declared := false
		for _, m := range matched {
			if _, ok := byName[m].Params[name]; ok {
				declared = true
				break
			}
		}
		if declared {
			errs = append(errs, checkInts(e, name, matched, byName)...)
			continue
		}
		// Only for the error: the parameters that are declared.
		var all []string
		for _, m := range matched {
			for k := range byName[m].Params {
				all = append(all, k)
			}
		}
		sort.Strings(all)
		all = dedup(all)
		valid := "none declare parameters"
		if len(all) > 0 {
			valid = "declared: " + strings.Join(all, ", ")
		}
		errs = append(errs, &spec.Error{Pos: e.ParamPos[name],
			Msg: fmt.Sprintf("params: no selected benchmark declares parameter %q (%s)", name, valid)})
	}
	return errs
}

// checkComplexity reports a selected benchmark of an entry with
// `complexity:` whose params, the entry's over the declared ones, give
// no n (spec.ComplexityParam).
func checkComplexity(e *spec.Entry, matched []string, byName map[string]*Benchmark) spec.ErrorList {
	if e.Settings.Complexity == "" {
		return nil
	}
	for _, m := range matched {
		params := maps.Clone(byName[m].Params)
		maps.Copy(params, e.Params)
		if _, err := spec.ComplexityParam(params); err != nil {
			return spec.ErrorList{&spec.Error{Pos: settingPos(e, "complexity"), Msg: fmt.Sprintf("benchmarks[%d]: %s: %v", e.Index, m, err)}}
		}
	}
	return nil
}

// product is the cartesian product of the declared parameters, with the
// entry's values replacing the declared ones for the names it gives.
func product(declared, override map[string][]string) [][]Param {
	names := make([]string, 0, len(declared))
	for n := range declared {
		names = append(names, n)
	}
	sort.Strings(names)
	// Each row is a window of one backing array, the rows' count known
	// up front: two allocations however many rows.
	lists := make([][]string, len(names))
	rows := 1
	for i, n := range names {
		lists[i] = declared[n]
		if o, ok := override[n]; ok {
			lists[i] = o
		}
		rows *= len(lists[i])
	}
	if len(names) == 0 {
		return [][]Param{nil}
	}
	out := make([][]Param, rows)
	cells := make([]Param, rows*len(names))
	for r := range out {
		row := cells[r*len(names) : (r+1)*len(names) : (r+1)*len(names)]
		// The first name varies slowest: r in mixed radix.
		rest := r
		for i := len(names) - 1; i >= 0; i-- {
			k := len(lists[i])
			row[i] = Param{Name: names[i], Value: lists[i][rest%k]}
			rest /= k
		}
		out[r] = row
	}
	return out
}

// key is a run's identity: benchmark, params, threads (when not 1) and
// mode, e.g. "sort.Ints/size=10:avgt" or "counter.Shared/threads=2:thrpt";
// a group's gives each member's threads, "rw/threads=write:1,read:3:thrpt",
// and its member's row the member's name, "rw:read/threads=write:1,read:3:thrpt".
func key(r *Run) string {
	var b strings.Builder
	n := len(r.Benchmark) + len(":") + len(r.Mode) + len("/threads=max")
	for _, p := range r.Params {
		n += len("/=") + len(p.Name) + len(p.Value)
	}
	b.Grow(n)
	b.WriteString(r.Benchmark)
	for _, p := range r.Params {
		b.WriteString("/")
		b.WriteString(p.Name)
		b.WriteString("=")
		b.WriteString(p.Value)
	}
	switch t := r.Settings.Threads; {
	case len(r.Group) > 0:
		// every member's threads: two runs of one group differ in them
		b.WriteString("/threads=")
		for i, m := range r.Group {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(m.Name)
			b.WriteString(":")
			b.WriteString(strconv.Itoa(m.Threads))
		}
	case t == spec.ThreadsMax:
		b.WriteString("/threads=max")
	case t > 1:
		b.WriteString("/threads=")
		b.WriteString(strconv.Itoa(t))
	}
	b.WriteString(":")
	b.WriteString(r.Mode.String())
	return b.String()
}

// ssIterationGuess is what a single-shot iteration is assumed to take:
// its length is the benchmark's, not a setting.
const ssIterationGuess = 10 * time.Millisecond

func estimate(r *Run) time.Duration {
	s := r.Settings
	overhead, iteration := ForkOverhead, func(d time.Duration) time.Duration { return d }
	if r.GoTest != nil {
		overhead += GoTestForkOverhead
		iteration = func(d time.Duration) time.Duration {
			if d > math.MaxInt64/2 {
				return d // saturates below
			}
			return time.Duration(float64(d) * GoTestRamp)
		}
	}
	phase := func(it spec.Iterations) time.Duration {
		if !r.Mode.TimedIterations() {
			return satMul(it.Iterations, ssIterationGuess)
		}
		return satMul(it.Iterations, iteration(it.Time))
	}
	forks := s.WarmupForks + s.Forks
	if s.Forks == 0 {
		forks = 1
	}
	return satMul(forks, satAdd(overhead, satAdd(phase(s.Warmup), phase(s.Measurement))))
}

func dedup(xs []string) []string {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// checkInts reports the entry's values for a parameter that a selected
// benchmark declared as an integer and that are not integers.
func checkInts(e *spec.Entry, name string, matched []string, byName map[string]*Benchmark) spec.ErrorList {
	for _, m := range matched {
		if !byName[m].IntParams[name] {
			continue
		}
		var errs spec.ErrorList
		for _, v := range e.Params[name] {
			if _, err := strconv.Atoi(v); err != nil {
				errs = append(errs, &spec.Error{Pos: e.ParamPos[name],
					Msg: fmt.Sprintf("params.%s: %q is not an integer (benchmark %q declares %s as an integer parameter)", name, v, m, name)})
			}
		}
		return errs
	}
	return nil
}

// candidates narrows the sorted names an include can match: an include
// anchored with ^ can only match names that start with its literal
// prefix, found by binary search, so a spec of thousands of entries
// against thousands of benchmarks does not try every pair.
func candidates(include string, inc *regexp.Regexp, names []string) []string {
	if !strings.HasPrefix(include, "^") {
		return names
	}
	prefix, _ := inc.LiteralPrefix()
	if prefix == "" {
		return names
	}
	lo := sort.SearchStrings(names, prefix)
	hi := lo
	for hi < len(names) && strings.HasPrefix(names[hi], prefix) {
		hi++
	}
	return names[lo:hi]
}
