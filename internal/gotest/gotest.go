// Package gotest turns the `package:` entries of specs into benchmarks:
// it builds each named Go package's test binary once, with benchspec's
// driver (internal/testdriver) added through `go test -overlay` (the
// package's source tree is never written), and finds every benchmark
// in it that go test would print a result line for: each benchmark
// function, and each b.Run sub-benchmark, found by one cheap listing run
// of the selected functions (Discover). The forks then run that binary
// (see worker.RunTestBinary); nothing here measures.
//
// A relative `package:` (./codec) is relative to its spec file
// (plan.PackageKey), and the go command runs in that directory, so the
// package is resolved in its own module; an import path is resolved in
// the module of the spec's directory, or the standard library. Which
// packages a spec may name at all (its own module's and the standard
// library's, unless --allow-packages-outside-module) is checked before
// anything here runs: plan.CheckPackageScope.
//
// Test binaries are cached by content: `go test -c` builds into a
// temporary file next to the cache; the binary's SHA-256 names it
// (<import path>-<hash>.test), and an identical one already there is
// kept instead. A later batch of an unchanged package does not even run
// the go command: a fingerprint of everything the build reads that can
// change without the go command's help (benchspec's driver, the go
// binary, the GO* and CGO_* environment, the package argument and
// directory, and every file of the module it is resolved in; see
// fingerprint) finds the binary and its
// listing in the cache's index. The standard library and the module
// cache are keyed by the go binary and go.sum. Workspaces (go.work) and
// go.mod replace directives that point at directories are outside the
// fingerprint, so such packages are rebuilt every time, as is any
// package when BENCHSPEC_CACHE_NO_INDEX is set.
//
// A package of a dependency (in the module cache, where the go command
// refuses an -overlay) is built from a copy of its module in the cache,
// through a -modfile: see outOfModuleCache.
//
// The cache is $BENCHSPEC_CACHE, or benchspec/testbin under the user's
// cache directory. It is bounded (Limits): after a build, binaries unused
// for longer than the age limit, then the least recently used beyond the
// size limit, are removed. `benchspec cache` shows and prunes it.
package gotest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/benchspec/benchspec/internal/testdriver"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// Package is a Go package's test binary and the benchmark functions in it.
type Package struct {
	ImportPath string `json:"import_path"`
	Dir        string `json:"dir"`    // the package's source directory
	Binary     string `json:"binary"` // the test binary, in the cache
	// Benchmarks are the benchmark function names (BenchmarkIndex),
	// sorted.
	Benchmarks []string `json:"benchmarks"`
	// External marks the functions of the external test package
	// (package p_test), whose driver is another test function.
	External map[string]bool `json:"external,omitempty"`
	// Leaves marks the functions that certainly have no sub-benchmarks
	// (isLeaf): Discover lists them without running them.
	Leaves map[string]bool `json:"leaves,omitempty"`
}

// Driver is the driver test function that can call the benchmark
// function fn.
func (p *Package) Driver(fn string) string { return testdriver.DriverTest(p.External[fn]) }

// Builder builds and lists test binaries, each package once per Builder.
// The zero value uses DefaultCacheDir and the go command on PATH.
type Builder struct {
	// CacheDir holds the test binaries; "" is DefaultCacheDir().
	CacheDir string
	// Go is the go command; "" is "go".
	Go string
	// Limits bound the cache; the zero value is LimitsFromEnv().
	Limits *Limits
	// Start starts the listing run of a test binary (Discover), which
	// runs the package's code at plan time: the commands start it
	// contained as a fork is (executor.StartContained, through
	// cli.PackageBuilder). nil starts it in a process group of its own,
	// killed with this process and after it exits.
	Start func(cmd *exec.Cmd) (Process, error)
	// Warn says what the command should tell its user (a cached binary
	// that was replaced); nil prints to stderr.
	Warn func(msg string)

	mu     sync.Mutex
	loaded map[string]loaded // by the package as the spec writes it
}

type loaded struct {
	pkg *Package
	err error
}

// DefaultCacheDir is $BENCHSPEC_CACHE, else benchspec/testbin in the
// user's cache directory (os.UserCacheDir), else in the temporary
// directory.
func DefaultCacheDir() string {
	if d := os.Getenv("BENCHSPEC_CACHE"); d != "" {
		return d
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "benchspec", "testbin")
}

func (b *Builder) cacheDir() string {
	if b.CacheDir != "" {
		return b.CacheDir
	}
	return DefaultCacheDir()
}

// Benchmarks resolves the `package:` entries of specs into the plan's
// benchmarks: every benchmark go test would print a result for, in the
// functions the entries' includes select at their first level, with its
// test binary. Every problem is reported, at the position of the entry's
// `package:`, as a spec.ErrorList.
func (b *Builder) Benchmarks(ctx context.Context, specs []*spec.Spec) ([]plan.Benchmark, error) {
	var errs spec.ErrorList
	var order []string
	pkgs := map[string]*Package{}
	funcs := map[string]map[string]bool{}
	timeouts := map[string]time.Duration{}
	for _, s := range specs {
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.Package == "" {
				continue
			}
			key := plan.PackageKey(s.Path, e.Package)
			p, err := b.LoadIn(ctx, filepath.Dir(s.Path), key)
			if err != nil {
				errs = append(errs, &spec.Error{Pos: e.PackagePos, Msg: fmt.Sprintf("benchmarks[%d].package: %v", e.Index, err)})
				continue
			}
			if pkgs[key] == nil {
				pkgs[key], funcs[key] = p, map[string]bool{}
				order = append(order, key)
			}
			for _, fn := range selectedFuncs(e, p.Benchmarks) {
				funcs[key][fn] = true
			}
			timeouts[key] = max(timeouts[key], e.Settings.Timeout)
		}
	}
	var out []plan.Benchmark
	for _, key := range order {
		p := pkgs[key]
		l, err := b.Discover(ctx, p, funcs[key], timeouts[key])
		if err != nil {
			errs = append(errs, &spec.Error{Pos: firstPackagePos(specs, key), Msg: fmt.Sprintf("package %s: %v", p.ImportPath, err)})
			continue
		}
		for _, fn := range p.Benchmarks {
			for _, leaf := range l.Funcs[fn] {
				out = append(out, plan.Benchmark{
					Name:    plan.PackageName(leaf),
					Testing: true,
					Package: key,
					GoTest: &plan.GoTest{ImportPath: p.ImportPath, Dir: p.Dir, Binary: p.Binary,
						Func: fn, Name: leaf, Driver: p.Driver(fn), Labels: l.Labels},
				})
			}
		}
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// selectedFuncs are the benchmark functions whose sub-benchmarks the
// entry may select: those its include matches at the first level (fully
// or as a parent) and its exclude does not remove whole. An invalid
// pattern selects nothing here; plan.Build reports it.
func selectedFuncs(e *spec.Entry, funcs []string) []string {
	inc, err := plan.CompileNameFilter(e.Include)
	if err != nil {
		return nil
	}
	var exc *plan.NameFilter
	if e.Exclude != "" {
		if exc, err = plan.CompileNameFilter(e.Exclude); err != nil {
			return nil
		}
	}
	var out []string
	for _, fn := range funcs {
		level := []string{fn}
		if ok, _ := inc.Match(level); ok && (exc == nil || !exc.Excludes(level)) {
			out = append(out, fn)
		}
	}
	return out
}

func firstPackagePos(specs []*spec.Spec, key string) spec.Pos {
	for _, s := range specs {
		for i := range s.Entries {
			if e := &s.Entries[i]; e.Package != "" && plan.PackageKey(s.Path, e.Package) == key {
				return e.PackagePos
			}
		}
	}
	return spec.Pos{}
}

// Load builds the test binary of pkg and lists its benchmark functions.
// pkg is an import path, resolved in the current directory's module (or
// the standard library), or a directory, which the go command then runs
// in, so that it is resolved in its own module. A path that names no
// package or several, a package without test files or benchmarks, and a
// build failure are errors that say so.
func (b *Builder) Load(ctx context.Context, pkg string) (*Package, error) {
	return b.LoadIn(ctx, "", pkg)
}

// LoadIn is Load with an import path resolved in the module of directory
// dir ("": the current one): Benchmarks passes the spec's directory, so
// that a spec's import path means a package of the module that holds the
// spec, wherever it is run from (the module plan.CheckPackageScope
// checks it against).
func (b *Builder) LoadIn(ctx context.Context, dir, pkg string) (*Package, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	key := pkg
	if !filepath.IsAbs(pkg) {
		key = dir + "\x00" + pkg
	}
	if l, ok := b.loaded[key]; ok {
		return l.pkg, l.err
	}
	p, err := b.load(ctx, dir, pkg)
	if b.loaded == nil {
		b.loaded = map[string]loaded{}
	}
	b.loaded[key] = loaded{p, err}
	return p, err
}

func (b *Builder) load(ctx context.Context, dir, pkg string) (*Package, error) {
	arg := pkg
	if filepath.IsAbs(pkg) {
		dir, arg = pkg, "."
		if fi, err := os.Stat(pkg); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("package directory %s does not exist", pkg)
		}
	}
	cache := b.cacheDir()
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, fmt.Errorf("test binary cache: %w", err)
	}
	fp := fingerprint(b.goBin(), dir, arg)
	p, err := readIndex(cache, fp)
	if p != nil {
		return p, nil
	}
	if err != nil {
		b.warn(fmt.Sprintf("test binary cache: %v; removed it, building again", err))
	}
	l, err := b.list(ctx, dir, arg)
	if err != nil {
		return nil, err
	}
	l, mf, err := b.outOfModuleCache(ctx, cache, dir, arg, l)
	if err != nil {
		return nil, err
	}
	defer mf.close()
	funcs, external, leaves, err := benchmarkFuncs(l)
	if err != nil {
		return nil, err
	}
	if len(funcs) == 0 {
		return nil, fmt.Errorf("package %s has no benchmarks: its _test.go files declare no func BenchmarkXxx(b *testing.B)", l.ImportPath)
	}
	ov, err := overlay(cache, l, funcs, external)
	if err != nil {
		return nil, fmt.Errorf("test binary cache: %w", err)
	}
	p = &Package{ImportPath: l.ImportPath, Dir: l.Dir, Benchmarks: funcs, External: external, Leaves: leaves}
	if p.Binary, err = b.build(ctx, cache, dir, arg, l.ImportPath, ov, mf); err != nil {
		return nil, err
	}
	writeIndex(cache, fp, p)
	b.limits().Prune(cache, p.Binary)
	return p, nil
}

func (b *Builder) warn(msg string) {
	if b.Warn != nil {
		b.Warn(msg)
		return
	}
	fmt.Fprintln(os.Stderr, "benchspec:", msg)
}

func (b *Builder) limits() Limits {
	if b.Limits != nil {
		return *b.Limits
	}
	return LimitsFromEnv()
}
