// Package gotest turns the `package:` entries of specs into benchmarks:
// it builds each named Go package's test binary once and lists the
// benchmark functions in it. The forks then run that binary (see
// worker.RunTestBinary); nothing here measures.
//
// A relative `package:` (./codec) is relative to its spec file
// (plan.PackageKey), and the go command runs in that directory, so the
// package is resolved in its own module; an import path is resolved in
// the module of the current directory, or the standard library.
//
// Test binaries are cached by content. `go test -c` builds into a
// temporary file next to the cache; the binary's SHA-256 names it
// (<import path>-<hash>.test), and an identical one already there is
// kept instead. Go's own build cache makes the rebuild of an unchanged
// package a matter of a fraction of a second (the compile and the link
// are both cached), and Go builds are reproducible, so an unchanged
// package always gets the same file: its path is stable across batches
// (a resumed journal finds it), and a changed package never runs a
// stale binary, whatever changed — its code, a dependency, the Go
// version, build flags or GOFLAGS. The cache is $BENCHSPEC_CACHE, or
// benchspec/testbin under the user's cache directory; nothing removes old
// binaries from it.
package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// Package is a Go package's test binary and the benchmarks in it.
type Package struct {
	ImportPath string
	Dir        string // the package's source directory
	Binary     string // the test binary, in the cache
	// Benchmarks are the benchmark function names (BenchmarkIndex), in
	// the order the test binary lists them.
	Benchmarks []string
}

// Builder builds and lists test binaries, each package once per Builder.
// The zero value uses DefaultCacheDir and the go command on PATH.
type Builder struct {
	// CacheDir holds the test binaries; "" is DefaultCacheDir().
	CacheDir string
	// Go is the go command; "" is "go".
	Go string

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

// Benchmarks resolves the `package:` entries of specs into the plan's
// benchmarks: every benchmark function of every package named, with its
// test binary. Every problem is reported, at the position of the
// entry's `package:`, as a spec.ErrorList.
func (b *Builder) Benchmarks(ctx context.Context, specs []*spec.Spec) ([]plan.Benchmark, error) {
	var out []plan.Benchmark
	var errs spec.ErrorList
	done := map[string]bool{}
	for _, s := range specs {
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.Package == "" {
				continue
			}
			key := plan.PackageKey(s.Path, e.Package)
			p, err := b.Load(ctx, key)
			if err != nil {
				errs = append(errs, &spec.Error{Pos: e.PackagePos, Msg: fmt.Sprintf("benchmarks[%d].package: %v", e.Index, err)})
				continue
			}
			if done[key] {
				continue
			}
			done[key] = true
			for _, fn := range p.Benchmarks {
				out = append(out, plan.Benchmark{
					Name:    plan.PackageName(fn),
					Testing: true,
					Package: key,
					GoTest:  &plan.GoTest{ImportPath: p.ImportPath, Dir: p.Dir, Binary: p.Binary, Func: fn},
				})
			}
		}
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// Load builds the test binary of pkg and lists its benchmarks. pkg is an
// import path, resolved in the current directory's module (or the
// standard library), or a directory, which the go command then runs in,
// so that it is resolved in its own module. A path that names no package
// or several, a package without test files or benchmarks, and a build
// failure are errors that say so.
func (b *Builder) Load(ctx context.Context, pkg string) (*Package, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if l, ok := b.loaded[pkg]; ok {
		return l.pkg, l.err
	}
	p, err := b.load(ctx, pkg)
	if b.loaded == nil {
		b.loaded = map[string]loaded{}
	}
	b.loaded[pkg] = loaded{p, err}
	return p, err
}

func (b *Builder) load(ctx context.Context, pkg string) (*Package, error) {
	dir, arg := "", pkg
	if filepath.IsAbs(pkg) {
		dir, arg = pkg, "."
		if fi, err := os.Stat(pkg); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("package directory %s does not exist", pkg)
		}
	}
	p, err := b.list(ctx, dir, arg)
	if err != nil {
		return nil, err
	}
	if p.Binary, err = b.build(ctx, dir, arg, p.ImportPath); err != nil {
		return nil, err
	}
	if p.Benchmarks, err = listBenchmarks(ctx, p); err != nil {
		return nil, err
	}
	if len(p.Benchmarks) == 0 {
		return nil, fmt.Errorf("package %s has no benchmarks: its _test.go files declare no func BenchmarkXxx(b *testing.B)", p.ImportPath)
	}
	return p, nil
}

// list resolves pkg with go list, run in dir ("": the current one).
func (b *Builder) list(ctx context.Context, dir, pkg string) (*Package, error) {
	if strings.HasPrefix(pkg, "-") {
		return nil, fmt.Errorf("invalid package %q", pkg)
	}
	out, err := b.goCmd(ctx, dir, "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}", "--", pkg)
	if err != nil {
		return nil, fmt.Errorf("package %q: %w", pkg, err)
	}
	if strings.TrimSpace(out) == "" {
		return nil, fmt.Errorf("package %q matches no package", pkg)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 {
		return nil, fmt.Errorf("package %q names %d packages; name exactly one", pkg, len(lines))
	}
	f := strings.Split(lines[0], "\t")
	if len(f) != 4 {
		return nil, fmt.Errorf("package %q: unexpected go list output %q", pkg, lines[0])
	}
	if f[2] == "0" && f[3] == "0" {
		return nil, fmt.Errorf("package %s has no test files, so no benchmarks", f[0])
	}
	return &Package{ImportPath: f[0], Dir: f[1]}, nil
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// build runs go test -c on pkg in dir into a temporary file in the
// cache and installs the result under its content hash.
func (b *Builder) build(ctx context.Context, dir, pkg, importPath string) (string, error) {
	cache := b.CacheDir
	if cache == "" {
		cache = DefaultCacheDir()
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("test binary cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cache, ".build-")
	if err != nil {
		return "", fmt.Errorf("test binary cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "pkg.test")
	if _, err := b.goCmd(ctx, dir, "test", "-c", "-o", bin, pkg); err != nil {
		return "", fmt.Errorf("building the test binary of %s failed: %w", importPath, err)
	}
	sum, err := filehash.SHA256(bin)
	if err != nil {
		return "", fmt.Errorf("building the test binary of %s: %w", importPath, err)
	}
	name := strings.Trim(unsafeChars.ReplaceAllString(importPath, "_"), "_.")
	final := filepath.Join(cache, fmt.Sprintf("%s-%s.test", name, sum[:16]))
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	if err := os.Rename(bin, final); err != nil {
		return "", fmt.Errorf("test binary cache: %w", err)
	}
	return final, nil
}

// listBenchmarks asks the test binary for its benchmark functions.
func listBenchmarks(ctx context.Context, p *Package) ([]string, error) {
	cmd := exec.CommandContext(ctx, p.Binary, "-test.list", "^Benchmark")
	cmd.Dir = p.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("listing the benchmarks of %s (%s -test.list): %v%s", p.ImportPath, p.Binary, err, indent(stderr.String()))
	}
	var names []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "Benchmark") && !strings.ContainsAny(line, " \t") {
			names = append(names, line)
		}
	}
	return names, nil
}

// goCmd runs the go command in dir ("": the current one) and returns its
// stdout; a failure carries its stderr.
func (b *Builder) goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	goBin := b.Go
	if goBin == "" {
		goBin = "go"
	}
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr.Len() > 0 {
			return "", fmt.Errorf("go %s failed:%s", args[0], indent(stderr.String()))
		}
		return "", fmt.Errorf("go %s: %v%s", args[0], err, indent(stderr.String()))
	}
	return stdout.String(), nil
}

// indent puts the command output s on lines of its own, indented, for
// an error message; "" stays "".
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "\n\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
