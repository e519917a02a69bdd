package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// A spec's `builds:` are built here, for run and plan: the suite's main
// package (Registry.SuitePackage) once per build, by reg.Build, the one
// path that builds suites (ab's sides too), and the test binaries of the
// spec's package entries likewise (Registry.Packages). Each build's
// benchmarks are marked as its own (plan.Benchmark.Build and
// Executable), and plan.Build measures every run of a spec once per
// build of it.

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

// withBuilds builds every build the specs declare and returns its
// benchmarks: the registered ones of the suite built as the build says,
// when a spec of the build has entries without `package:` and the suite
// was given, and those of the build's package entries.
func withBuilds(ctx context.Context, specs []*spec.Spec, reg Registry) ([]plan.Benchmark, error) {
	builds, errs := batchBuilds(specs)
	if errs != nil {
		return nil, errs
	}
	var out []plan.Benchmark
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

func hasBuilds(s *spec.Spec) bool { return len(s.Builds) > 0 }

func hasRegistered(s *spec.Spec) bool {
	return slices.ContainsFunc(s.Entries, func(e spec.Entry) bool { return e.Package == "" })
}
