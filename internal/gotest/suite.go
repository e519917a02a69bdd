package gotest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchspec/benchspec/plan"
)

// BuildSuite builds the suite binary of the main package pkg (a
// directory such as ./bench, or an import path), resolved in dir ("":
// the current directory), with go build, into the cache beside the test
// binaries: the one build-and-cache path of the benchspec program. The go
// command's own cache makes a rebuild of an unchanged package cheap.
func (b *Builder) BuildSuite(ctx context.Context, dir, pkg string) (string, error) {
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
	if _, err := b.goCmd(ctx, dir, "build", "-o", bin, pkg); err != nil {
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
