package cli

import (
	"context"
	"slices"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// withPackages returns the registered benchmarks and, when the specs
// have `package:` entries and reg can resolve them, the benchmarks of
// those packages (whose test binaries that builds). Without a resolver,
// plan.Build reports such entries.
func withPackages(ctx context.Context, specs []*spec.Spec, reg Registry) ([]plan.Benchmark, error) {
	if reg.Packages == nil || !slices.ContainsFunc(specs, hasPackage) {
		return reg.Benchmarks, nil
	}
	pkgs, err := reg.Packages(ctx, specs)
	if err != nil {
		return nil, err
	}
	return append(slices.Clip(reg.Benchmarks), pkgs...), nil
}

func hasPackage(s *spec.Spec) bool {
	return slices.ContainsFunc(s.Entries, func(e spec.Entry) bool { return e.Package != "" })
}
