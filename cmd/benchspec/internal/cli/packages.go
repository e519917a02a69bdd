package cli

import (
	"context"
	"os"
	"os/exec"
	"slices"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/executor/gotest"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

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

// withPackages returns the registered benchmarks and, when the specs
// have `package:` entries and reg can resolve them, the benchmarks of
// those packages (whose test binaries that builds); then those of every
// build of the specs' `builds:` (withBuilds). Without a resolver,
// plan.Build reports package entries.
func withPackages(ctx context.Context, specs []*spec.Spec, reg Registry) ([]plan.Benchmark, error) {
	out := slices.Clip(reg.Benchmarks)
	plain := slices.DeleteFunc(slices.Clone(specs), hasBuilds)
	if reg.Packages != nil && slices.ContainsFunc(plain, hasPackage) {
		pkgs, err := reg.Packages(ctx, plain, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, pkgs...)
	}
	built, err := withBuilds(ctx, specs, reg)
	if err != nil {
		return nil, err
	}
	return append(out, built...), nil
}

func hasPackage(s *spec.Spec) bool {
	return slices.ContainsFunc(s.Entries, func(e spec.Entry) bool { return e.Package != "" })
}
