package gotest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// BuildSuite builds the suite binary of the main package pkg (a
// directory such as ./bench, or an import path), resolved in dir ("":
// the current directory), with go build as the build v says (nil: the
// plain build; see variantOf), into the cache beside the test binaries:
// the one build-and-cache path of the benchspec program. The go
// command's own cache makes a rebuild of an unchanged package cheap.
// Binaries are named by their content, so builds that differ do not
// collide, and one that builds the same bytes shares the file.
func (b *Builder) BuildSuite(ctx context.Context, dir, pkg string, v *spec.Build) (string, error) {
	cache := b.cacheDir()
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("binary cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cache, ".build-")
	if err != nil {
		return "", fmt.Errorf("binary cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "suite")
	x := variantOf(v)
	args := append([]string{"build", "-o", bin}, x.args...)
	if _, err := b.goCmd(ctx, dir, x, append(args, pkg)...); err != nil {
		return "", fmt.Errorf("building the suite %s: %w", pkg, err)
	}
	name := pkg
	if abs, err := filepath.Abs(filepath.Join(dir, pkg)); err == nil && (plan.IsRelative(pkg) || filepath.IsAbs(pkg)) {
		name = filepath.Base(abs)
	}
	final, err := install(cache, bin, "suite-"+name)
	if err != nil {
		return "", fmt.Errorf("building the suite %s: %w", pkg, err)
	}
	return final, nil
}
