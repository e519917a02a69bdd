package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/executor/gotest"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/spec"
)

// Every binary a command runs is built here, through one Registry.Build:
// the suite --suite names as a main package, each build of a spec's
// `builds:` (the suite's main package built once per build, the test
// binaries of the spec's package entries likewise, by Registry.Packages)
// and ab's two sides (the suite built at a git revision or in the
// working tree). Each build's benchmarks are marked as its own
// (plan.Benchmark.Build and Executable), and plan.Build measures every
// run of a spec once per build of it.

// Registry is what the commands run: the registered benchmarks of a
// suite binary (Executable, whose forks run them), and the go test
// benchmarks of the specs' `package:` entries.
type Registry struct {
	Benchmarks []plan.Benchmark
	// Executable is the suite binary whose forks run Benchmarks (set by
	// --suite, or by the suite binary that handed over its command line).
	Executable string
	// SuitePackage is the main package Executable was built from, in
	// SuiteDir ("": the current directory), from which the builds of a
	// spec's `builds:` are built; "" when the suite was given as a
	// binary.
	SuitePackage, SuiteDir string
	// Packages resolves the `package:` entries of specs into benchmarks
	// (gotest.Builder.Benchmarks: it builds the test binaries as the
	// build says, nil for the plain one); nil makes such entries an
	// error. Errors are a spec.ErrorList.
	Packages func(ctx context.Context, specs []*spec.Spec, build *spec.Build) ([]plan.Benchmark, error)
	// Build builds the suite binary of a main package (--suite ./bench)
	// in dir as the build says (nil: the plain one) and returns its
	// path; nil: --suite names binaries only.
	Build func(ctx context.Context, dir, pkg string, build *spec.Build) (string, error)
	// Checkout tells Build and Packages that dir holds a checkout of a
	// git revision of the working tree at worktree (ab's sides), whose
	// go commands see the working tree's workspace; nil: they do not.
	Checkout func(dir, worktree string)
	// Formats are the output formats of run's and ab's --format:
	// cmd/benchspec adds html to report/format's (nil: those alone).
	Formats format.List
}

// Builds is the Registry of the benchspec program: the go test
// benchmarks of `package:` entries and the suites --suite names as
// packages, built by one gotest.Builder, whose listing runs — the
// package's code that runs at plan time — are contained as forks are
// (executor.StartContained), with this binary as their guard and shield.
func Builds() Registry {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	b := &gotest.Builder{Start: func(cmd *exec.Cmd) (gotest.Process, error) {
		c, err := executor.StartContained(cmd, exe)
		if err != nil {
			return nil, err
		}
		return c, nil
	}}
	return Registry{Packages: b.Benchmarks, Build: b.BuildSuite, Checkout: b.AddCheckout}
}

// withSuite returns reg with the suite --suite names: a suite binary, or
// a main package (what is no file), built into the cache; "" leaves reg
// as it is.
func (reg Registry) withSuite(ctx context.Context, e *Env, path string) (Registry, bool) {
	if path == "" {
		return reg, true
	}
	var r Registry
	var err error
	if fi, serr := os.Stat(path); (serr != nil || fi.IsDir()) && reg.Build != nil {
		r, err = reg.built(ctx, "", path)
	} else {
		if abs, aerr := filepath.Abs(path); aerr == nil {
			path = abs
		}
		r, err = reg.listed(ctx, path)
	}
	if err != nil {
		e.Errorf("--suite %s: %v", path, err)
		return reg, false
	}
	return r, true
}

// built returns reg with the suite of the main package pkg built in dir
// (the plain build), from which the specs' builds are built too.
func (reg Registry) built(ctx context.Context, dir, pkg string) (Registry, error) {
	bin, benchmarks, err := reg.buildSuite(ctx, dir, pkg, nil)
	if err != nil {
		return reg, err
	}
	reg.Benchmarks = append(benchmarks, reg.Benchmarks...)
	reg.Executable, reg.SuitePackage, reg.SuiteDir = bin, pkg, dir
	return reg, nil
}

// listed returns reg with the suite binary at path, absolute, whose
// forks will run its registered benchmarks.
func (reg Registry) listed(ctx context.Context, path string) (Registry, error) {
	benchmarks, err := ListSuite(ctx, path)
	if err != nil {
		return reg, err
	}
	reg.Benchmarks = append(benchmarks, reg.Benchmarks...)
	reg.Executable = path
	return reg, nil
}

// buildSuite builds the suite of the main package pkg in dir as build
// says (nil: the plain build) and lists its registered benchmarks.
func (reg Registry) buildSuite(ctx context.Context, dir, pkg string, build *spec.Build) (string, []plan.Benchmark, error) {
	bin, err := reg.Build(ctx, dir, pkg, build)
	if err != nil {
		return "", nil, err
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	benchmarks, err := ListSuite(ctx, bin)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", bin, err)
	}
	return bin, benchmarks, nil
}

// worktree names the working tree as it stands, for ab's --base and --new.
const worktree = "."

// side returns reg with one side of `benchspec ab`, and the spec paths
// as that side reads them. side is a suite binary; "." (the working
// tree: suitePkg built in place); or a git revision: suitePkg built in a
// checkout of it, kept by commit in the cache, and the specs copied to
// their place in the checkout, so that a package: entry names the
// revision's package. A name that is both a file and a revision is
// refused (see resolveRevision).
func (reg Registry) side(ctx context.Context, side, suitePkg string, specs []string) (Registry, []string, error) {
	if fi, err := os.Stat(side); err == nil && fi.Mode().IsRegular() && side != worktree {
		if !isPath(side) {
			if commit, err := gitOut(ctx, "rev-parse", "--verify", "--end-of-options", side+"^{commit}"); err == nil {
				full := "its commit " + commit
				if refs, err := fullRefs(ctx, side); err == nil && len(refs) > 0 {
					full = strings.Join(refs, " or ")
				}
				return reg, nil, fmt.Errorf("%q is both a file here and a git revision: write ./%s for the file, or %s for the revision", side, side, full)
			}
		}
		// Absolute: a fork is started from another directory than ours.
		abs, err := filepath.Abs(side)
		if err == nil {
			reg, err = reg.listed(ctx, abs)
		}
		return reg, specs, err
	}
	dir, pkg := "", suitePkg
	if side != worktree {
		var err error
		if dir, pkg, specs, err = reg.atRevision(ctx, side, suitePkg, specs); err != nil {
			return reg, nil, err
		}
	}
	if suitePkg == "" {
		return reg, specs, nil
	}
	if reg.Build == nil {
		return reg, nil, errors.New("this program cannot build suites")
	}
	reg, err := reg.built(ctx, dir, pkg)
	return reg, specs, err
}

// atRevision checks out the git revision rev and returns where the
// suite's main package suitePkg is built in the checkout — in dir, its
// place of the current directory, so that a relative package or an
// import path means there what it means here, in the revision's module —
// and the specs placed in it (placeSpecs).
func (reg Registry) atRevision(ctx context.Context, rev, suitePkg string, specs []string) (dir, pkg string, placed []string, err error) {
	co, err := checkout(ctx, rev)
	if err != nil {
		return "", "", nil, err
	}
	if placed, err = placeSpecs(co, specs); err != nil {
		return "", "", nil, err
	}
	root, err := gitOut(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", nil, err
	}
	if reg.Checkout != nil {
		reg.Checkout(co, root)
	}
	wd, err := repoRelative(".")
	if err != nil {
		return "", "", nil, err
	}
	dir, pkg = filepath.Join(co, wd), suitePkg
	if isPath(suitePkg) {
		rel, err := repoRelative(suitePkg)
		if err != nil {
			return "", "", nil, err
		}
		pkg = filepath.Join(co, rel)
	}
	return dir, pkg, placed, nil
}

// isPath reports whether name can only be a path: it starts with ./, ../
// or /, which no git revision name does.
func isPath(name string) bool {
	return filepath.IsAbs(name) || plan.IsRelative(name)
}

// batchBuild is a build as a batch knows it: the spec's, its profile's
// path resolved (plan.PGOPath), with the specs that declare it.
type batchBuild struct {
	spec.Build
	specs []*spec.Spec
}

// batchBuilds returns the builds the specs declare, by name, in the
// order first declared. A name is one build in a batch: a spec that
// builds it otherwise than an earlier one is an error at its build.
func batchBuilds(specs []*spec.Spec) ([]*batchBuild, spec.ErrorList) {
	var out []*batchBuild
	var errs spec.ErrorList
	byName := map[string]*batchBuild{}
	for _, s := range specs {
		for i, b := range s.Builds {
			if b.PGOFile() {
				b.PGO = plan.PGOPath(s.Path, b.PGO)
			}
			first := byName[b.Name]
			switch {
			case first == nil:
				first = &batchBuild{Build: b}
				byName[b.Name] = first
				out = append(out, first)
			case first.Toolchain != b.Toolchain || first.GCFlags != b.GCFlags || !slices.Equal(first.Tags, b.Tags) ||
				first.GOAMD64 != b.GOAMD64 || first.PGO != b.PGO:
				errs = append(errs, &spec.Error{Pos: b.Pos, Msg: fmt.Sprintf(
					"builds[%d]: build %q is built otherwise in %s; the specs of one batch give a build's name to one build", i, b.Name, first.Pos.File)})
				continue
			}
			first.specs = append(first.specs, s)
		}
	}
	return out, errs
}

// withPackages returns the registered benchmarks and, when the specs
// without builds have `package:` entries and reg can resolve them, the
// benchmarks of those packages (whose test binaries that builds); then
// those of every build the specs declare: the registered ones of the
// suite built as the build says, when a spec of the build has entries
// without `package:` and the suite was given, and those of the build's
// package entries. Without a resolver, plan.Build reports package
// entries.
func withPackages(ctx context.Context, specs []*spec.Spec, reg Registry) ([]plan.Benchmark, error) {
	out := slices.Clip(reg.Benchmarks)
	plain := slices.DeleteFunc(slices.Clone(specs), func(s *spec.Spec) bool { return len(s.Builds) > 0 })
	if reg.Packages != nil && slices.ContainsFunc(plain, hasPackage) {
		pkgs, err := reg.Packages(ctx, plain, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, pkgs...)
	}
	builds, errs := batchBuilds(specs)
	if errs != nil {
		return nil, errs
	}
	for _, b := range builds {
		if reg.Executable != "" && slices.ContainsFunc(b.specs, hasRegistered) {
			if reg.SuitePackage == "" {
				return nil, spec.ErrorList{{Pos: b.Pos, Msg: fmt.Sprintf(
					"builds: benchspec builds each build of the suite from its main package, and the suite here is a built binary (%s): "+
						"run with --suite PKG naming the suite's main package, such as go tool benchspec run --suite ./bench SPEC", reg.Executable)}}
			}
			bin, benchmarks, err := reg.buildSuite(ctx, reg.SuiteDir, reg.SuitePackage, &b.Build)
			if err != nil {
				return nil, spec.ErrorList{{Pos: b.Pos, Msg: fmt.Sprintf("builds: %s: building the suite %s: %v", b.Name, reg.SuitePackage, err)}}
			}
			for i := range benchmarks {
				benchmarks[i].Build, benchmarks[i].Executable = b.Name, bin
			}
			out = append(out, benchmarks...)
		}
		if reg.Packages != nil && slices.ContainsFunc(b.specs, hasPackage) {
			pkgs, err := reg.Packages(ctx, b.specs, &b.Build)
			if err != nil {
				return nil, err
			}
			out = append(out, pkgs...)
		}
	}
	return out, nil
}

// asBuilt is the registered benchmarks as every build the specs declare
// would have them, for the checks that build nothing (validate): the
// suite as given stands for each build.
func asBuilt(specs []*spec.Spec, benchmarks []plan.Benchmark) []plan.Benchmark {
	out := slices.Clip(benchmarks)
	builds, _ := batchBuilds(specs)
	for _, b := range builds {
		for _, bm := range benchmarks {
			bm.Build = b.Name
			out = append(out, bm)
		}
	}
	return out
}

func hasPackage(s *spec.Spec) bool {
	return slices.ContainsFunc(s.Entries, func(e spec.Entry) bool { return e.Package != "" })
}

func hasRegistered(s *spec.Spec) bool {
	return slices.ContainsFunc(s.Entries, func(e spec.Entry) bool { return e.Package == "" })
}

// buildInfos describes the spec builds p measures (report.Report.Builds),
// in plan order, from the build information the go command stamped
// into each build's binary: what was built, whatever the spec asked.
func buildInfos(p *plan.Plan) []report.BuildInfo {
	var out []report.BuildInfo
	seen := map[string]bool{}
	for _, r := range p.Runs {
		if r.Build == "" || seen[r.Build] {
			continue
		}
		seen[r.Build] = true
		bin := r.Executable
		if r.GoTest != nil {
			bin = r.GoTest.Binary
		}
		b := report.BuildInfo{Name: r.Build}
		if bi, set, ok := stamped(bin); ok {
			b.GoVersion, b.GCFlags, b.Tags, b.GOAMD64, b.PGO = bi.GoVersion, set["-gcflags"], set["-tags"], set["GOAMD64"], set["-pgo"]
		}
		out = append(out, b)
	}
	return out
}
