package plan

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/spec"
)

// A scope is what one kind of spec entry selects from: the registered
// benchmarks (entries without `package:`), or the benchmarks of one
// package, by the name include and exclude match.
type scope struct {
	byName map[string]*Benchmark
	names  []string // sorted
}

// scopeKey names a scope: a build (Benchmark.Build) and a package
// (Benchmark.Package).
type scopeKey struct{ build, pkg string }

// scopesOf groups the benchmarks by Build and Package.
func scopesOf(registry []Benchmark) map[scopeKey]*scope {
	out := map[scopeKey]*scope{}
	for i := range registry {
		b := &registry[i]
		k := scopeKey{b.Build, b.Package}
		sc := out[k]
		if sc == nil {
			sc = &scope{byName: map[string]*Benchmark{}}
			out[k] = sc
		}
		name := b.Name
		if b.GoTest != nil {
			name = b.GoTest.Name
		}
		sc.byName[name] = b
		sc.names = append(sc.names, name)
	}
	for _, sc := range out {
		sort.Strings(sc.names)
	}
	return out
}

// sortedNames returns the names to match, none for a nil scope.
func (sc *scope) sortedNames() []string {
	if sc == nil {
		return nil
	}
	return sc.names
}

func noPackage(e *spec.Entry) *spec.Error {
	return &spec.Error{Pos: e.PackagePos, Msg: fmt.Sprintf(
		"package %q: no benchmarks of it are known here; package entries are run by `benchspec run` (go run github.com/benchspec/benchspec/cmd/benchspec run) or a suite's run, which build its test binary", e.Package)}
}

// matchGoTest returns the go test names (BenchmarkTrimSpace/NoTrim) a
// package entry selects: those its include selects and its exclude does
// not exclude, with go test -bench and -skip semantics (NameFilter).
func matchGoTest(e *spec.Entry, names []string) ([]string, *spec.Error) {
	inc, err := CompileNameFilter(e.Include)
	if err != nil {
		return nil, &spec.Error{Pos: e.IncludePos, Msg: fmt.Sprintf("include: invalid regexp: %v", err)}
	}
	var exc *NameFilter
	if e.Exclude != "" {
		if exc, err = CompileNameFilter(e.Exclude); err != nil {
			return nil, &spec.Error{Pos: e.ExcludePos, Msg: fmt.Sprintf("exclude: invalid regexp: %v", err)}
		}
	}
	var out []string
	for _, n := range names {
		levels := NameLevels(n)
		if inc.Selects(levels) && (exc == nil || !exc.Excludes(levels)) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("include %s matches no benchmark of package %s", e.QuotedInclude(), e.Package)
		if e.Exclude != "" {
			msg = fmt.Sprintf("include %s with exclude %s matches no benchmark of package %s", e.QuotedInclude(), e.QuotedExclude(), e.Package)
		}
		if c := closest(e.Include, names, 3); len(c) > 0 {
			msg += "; closest: " + strings.Join(c, ", ")
		}
		return nil, &spec.Error{Pos: e.IncludePos, Msg: msg}
	}
	return out, nil
}

// checkTesting reports the settings of an entry that its go test
// benchmarks cannot run with. A func(*testing.B) is measured by
// testing.Benchmark (a package benchmark by testing.RunBenchmarks), one
// call per iteration: there is no per-invocation timing for sample mode
// and no synchronized threads. A package benchmark also runs in its
// test binary, never in-process. Warmup and measurement may differ in
// time and batch size: each phase has its own -test.benchtime.
func checkTesting(e *spec.Entry, matched []string, byName map[string]*Benchmark) spec.ErrorList {
	var testing, pkg string
	for _, m := range matched {
		b := byName[m]
		if b.Testing && testing == "" {
			testing = b.Name
		}
		if b.GoTest != nil && pkg == "" {
			pkg = b.GoTest.Name
		}
	}
	if testing == "" && pkg == "" {
		return nil
	}
	var errs spec.ErrorList
	fail := func(pos spec.Pos, key, format string, args ...any) {
		errs = append(errs, &spec.Error{Pos: pos, Msg: fmt.Sprintf("benchmarks[%d].%s: ", e.Index, key) + fmt.Sprintf(format, args...)})
	}
	s := &e.Settings
	what := fmt.Sprintf("go test benchmarks (func(*testing.B)) such as %q", testing)
	if pkg != "" {
		what = fmt.Sprintf("package benchmarks such as %s", pkg)
	}
	if slices.ContainsFunc(s.Modes, spec.Mode.Samples) {
		fail(settingPos(e, "modes"), "modes", "sample mode is not available for %s: testing.B times whole runs of b.N invocations, never single ones; use avgt, thrpt or ss", what)
	}
	if s.Threads != 1 {
		n := fmt.Sprint(s.Threads)
		if s.Threads == spec.ThreadsMax {
			n = "max"
		}
		fail(settingPos(e, "threads"), "threads", "threads: %s is not available for %s, which run on one goroutine; use threads: 1, and b.RunParallel inside the benchmark to measure in parallel", n, what)
	}
	if pkg == "" {
		return errs
	}
	if s.Forks == 0 {
		fail(settingPos(e, "forks"), "forks", "forks: 0 runs in-process, which %s cannot: they run in their package's test binary; use forks: 1 or more", what)
	}
	return errs
}

// settingPos is where the first of keys that has a position got its
// value, or the entry.
func settingPos(e *spec.Entry, keys ...string) spec.Pos {
	for _, k := range keys {
		if p, ok := e.SettingPos[k]; ok {
			return p
		}
	}
	return e.Pos
}

// PackageKey is the identity of a spec entry's package, how Benchmark.Package
// names it: an import path (strings, example.com/m/codec) as written, a
// relative path (./codec, ../internal/codec) resolved against the
// directory of the spec file, made absolute, and an absolute path as it
// is. Relative paths are the spec's, not the working directory's, so that
// a checked-in spec means the same package wherever it is run from.
func PackageKey(specPath, pkg string) string {
	if filepath.IsAbs(pkg) || !IsRelative(pkg) {
		return pkg
	}
	dir, err := filepath.Abs(filepath.Join(filepath.Dir(specPath), pkg))
	if err != nil {
		return pkg
	}
	return dir
}

// IsRelative reports whether pkg is a relative directory path, as the go
// command tells them from import paths.
func IsRelative(pkg string) bool {
	return pkg == "." || pkg == ".." || strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../")
}

// PackageName is the benchmark name of the package benchmark that go
// test names name: without its "Benchmark" prefix ("BenchmarkIndex" is
// "Index", "BenchmarkTrimSpace/NoTrim" is "TrimSpace/NoTrim"), the name
// benchstat gives it. A function named just "Benchmark" keeps it.
func PackageName(name string) string {
	if rest := strings.TrimPrefix(name, "Benchmark"); rest != "" && rest[0] != '/' {
		return rest
	}
	return name
}

// CheckPackageEntries checks the `package:` entries of specs without
// their packages: include and exclude compile as go test patterns, and
// the settings are ones package benchmarks can run with (checkTesting).
// It is what validate says of them, which builds and runs nothing of a
// package; plan and run also match the includes against the benchmarks
// the test binary lists.
func CheckPackageEntries(specs []*spec.Spec) spec.ErrorList {
	var errs spec.ErrorList
	for _, s := range specs {
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.Package == "" {
				continue
			}
			if _, err := CompileNameFilter(e.Include); err != nil {
				errs = append(errs, &spec.Error{Pos: e.IncludePos, Msg: fmt.Sprintf("include: invalid regexp: %v", err)})
			}
			if e.Exclude != "" {
				if _, err := CompileNameFilter(e.Exclude); err != nil {
					errs = append(errs, &spec.Error{Pos: e.ExcludePos, Msg: fmt.Sprintf("exclude: invalid regexp: %v", err)})
				}
			}
			b := &Benchmark{Testing: true, GoTest: &GoTest{Name: "those of " + e.Package}}
			errs = append(errs, checkTesting(e, []string{""}, map[string]*Benchmark{"": b})...)
		}
	}
	return errs
}

// WithoutPackages returns specs with their `package:` entries left out
// (copies of the specs that have any), for a plan of the registered
// benchmarks alone.
func WithoutPackages(specs []*spec.Spec) []*spec.Spec {
	return keepEntries(specs, func(e *spec.Entry) bool { return e.Package == "" })
}

// OnlyPackages returns specs with only their `package:` entries, for a
// check of those entries where no suite is given (validate without
// --suite).
func OnlyPackages(specs []*spec.Spec) []*spec.Spec {
	return keepEntries(specs, func(e *spec.Entry) bool { return e.Package != "" })
}

// keepEntries returns specs with the entries keep keeps: a spec with
// others a copy, the rest as they are.
func keepEntries(specs []*spec.Spec, keep func(*spec.Entry) bool) []*spec.Spec {
	out := make([]*spec.Spec, len(specs))
	for i, s := range specs {
		out[i] = s
		if !slices.ContainsFunc(s.Entries, func(e spec.Entry) bool { return !keep(&e) }) {
			continue
		}
		c := *s
		c.Entries = nil
		for _, e := range s.Entries {
			if keep(&e) {
				c.Entries = append(c.Entries, e)
			}
		}
		out[i] = &c
	}
	return out
}
