// Package gotest is everything benchspec does with go test packages. It
// turns the `package:` entries of specs into benchmarks: it builds each
// named package's test binary once, with benchspec's driver (driver.go)
// added through `go test -overlay` so that the source tree is never
// written, and lists every result line go test would print,
// sub-benchmarks included, with one cheap run at b.N = 1 (Discover).
// Each fork of a package benchmark is the benchspec program running that
// binary (RunTestBinary); the testing package measures. Which packages a
// spec may name is checked before anything is built: CheckPackageScope.
//
// Binaries are cached by content (their SHA-256 names them). A later
// batch of an unchanged package runs no go command at all: a fingerprint
// of what the build reads that can change without the go command's help
// (the driver, the go binary, the GO*/CGO_* environment, every file of
// the module) finds the binary and its listing in the cache's index.
// Workspaces and directory replaces are outside the fingerprint and
// always rebuild. A dependency's package, in the read-only module cache,
// is built from a copy of its module (outOfModuleCache). A git
// revision's checkout (AddCheckout) is built with the working tree's
// workspace or replaces, their paths absolute (workspace.go). The cache is
// bounded by age and size (Limits); `benchspec cache` shows and prunes it.
package gotest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

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
func (p *Package) Driver(fn string) string { return DriverTest(p.External[fn]) }

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
	loaded map[string]loaded // by the package as the spec writes it, and the variant
	co     checkouts
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
// test binary built as the build v says (nil: the plain build; see
// variantOf), the benchmarks marked as v's. Every problem is reported,
// at the position of the entry's `package:`, as a spec.ErrorList.
func (b *Builder) Benchmarks(ctx context.Context, specs []*spec.Spec, v *spec.Build) ([]plan.Benchmark, error) {
	x, build := variantOf(v), ""
	if v != nil {
		build = v.Name
	}
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
			p, err := b.loadIn(ctx, filepath.Dir(s.Path), key, x)
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
			leaves, listed := l.Funcs[fn]
			if !listed {
				// No entry selects it (else it was listed): its name
				// stands for it, for the closest-match message only.
				leaves = []string{fn}
			}
			for _, leaf := range leaves {
				out = append(out, plan.Benchmark{
					Name:    plan.PackageName(leaf),
					Testing: true,
					Package: key,
					Build:   build,
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

// loadIn builds the test binary of pkg, in the variant x, and lists its
// benchmark functions. pkg is an import path, resolved in the module of
// directory dir ("": the current one; Benchmarks passes the spec's, so
// that a spec's import path means a package of the module that holds the
// spec, wherever it is run from: the module CheckPackageScope checks it
// against) or the standard library, or a directory, which the go command
// then runs in, so that it is resolved in its own module. A path that
// names no package or several, a package without test files or
// benchmarks, and a build failure are errors that say so.
func (b *Builder) loadIn(ctx context.Context, dir, pkg string, x variant) (*Package, error) {
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
	key += "\x00" + x.id()
	if l, ok := b.loaded[key]; ok {
		return l.pkg, l.err
	}
	p, err := b.load(ctx, dir, pkg, x)
	if b.loaded == nil {
		b.loaded = map[string]loaded{}
	}
	b.loaded[key] = loaded{p, err}
	return p, err
}

func (b *Builder) load(ctx context.Context, dir, pkg string, x variant) (*Package, error) {
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
	fp := fingerprint(b.goBin(), dir, arg, x)
	if env, err := b.checkoutEnv(ctx, dir); err != nil || env != nil {
		fp = "" // a generated workspace: as a workspace, built every time
	}
	p, err := readIndex(cache, fp)
	if p != nil {
		return p, nil
	}
	if err != nil {
		b.warn(fmt.Sprintf("test binary cache: %v; removed it, building again", err))
	}
	l, err := b.list(ctx, dir, arg, x)
	if err != nil {
		return nil, err
	}
	l, mf, err := b.outOfModuleCache(ctx, cache, dir, arg, l, x)
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
	if p.Binary, err = b.build(ctx, cache, dir, arg, l.ImportPath, ov, mf, x); err != nil {
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
