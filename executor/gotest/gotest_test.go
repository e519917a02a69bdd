package gotest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// skipShort skips a test under -short: every test here runs the go
// command (go list, go test -c), which the unit tiers leave to the full
// suite.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command: runs without -short")
	}
}

func TestLoadBuildsOnceAndCachesByContent(t *testing.T) {
	skipShort(t)
	cache := t.TempDir()
	ctx := context.Background()
	b := &Builder{CacheDir: cache}
	p, err := b.loadIn(ctx, "", "strings", variant{})
	if err != nil {
		t.Fatal(err)
	}
	if p.ImportPath != "strings" || !strings.HasPrefix(p.Binary, cache+"/strings-") || !strings.HasSuffix(p.Binary, ".test") {
		t.Errorf("package = %+v, want strings built into %s", p, cache)
	}
	for _, want := range []string{"BenchmarkIndex", "BenchmarkIndexByte", "BenchmarkIndexHard1"} {
		if !slices.Contains(p.Benchmarks, want) {
			t.Errorf("benchmarks lack %s: %v", want, p.Benchmarks)
		}
	}
	if again, _ := b.loadIn(ctx, "", "strings", variant{}); again != p {
		t.Error("a second Load of the same package built it again")
	}
	// A new batch finds the very same file (by the fingerprint, or by
	// rebuilding: its name is the binary's content hash).
	fresh, err := (&Builder{CacheDir: cache}).loadIn(ctx, "", "strings", variant{})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Binary != p.Binary {
		t.Errorf("rebuilt binary %s, want the cached %s", fresh.Binary, p.Binary)
	}
	bins, _ := filepath.Glob(filepath.Join(cache, "*.test"))
	if len(bins) != 1 {
		t.Errorf("cache holds %d binaries (%v), want the one", len(bins), bins)
	}
	// Without the index, the rebuild gets the same file too.
	t.Setenv("BENCHSPEC_CACHE_NO_INDEX", "1")
	if rebuilt, err := (&Builder{CacheDir: cache}).loadIn(ctx, "", "strings", variant{}); err != nil || rebuilt.Binary != p.Binary {
		t.Errorf("rebuilt without the index: %v, %v; want %s", rebuilt, err, p.Binary)
	}
}

func TestLoadErrors(t *testing.T) {
	skipShort(t)
	tests := []struct {
		pkg  string
		want []string
	}{
		{"example.invalid/no/such/pkg", []string{`package "example.invalid/no/such/pkg": go list failed:`}},
		{"./testdata/missing", []string{`package "./testdata/missing": go list failed:`, "testdata/missing"}},
		{"./testdata/...", []string{`package "./testdata/..." matches no package`}},
		{"../../internal/protocol/...", []string{`package "../../internal/protocol/..." names 2 packages; name exactly one`}},
		{"./testdata/notests", []string{"executor/gotest/testdata/notests has no test files, so no benchmarks"}},
		{"./testdata/nobench", []string{"executor/gotest/testdata/nobench has no benchmarks: its _test.go files declare no func BenchmarkXxx(b *testing.B)"}},
		{"./testdata/broken", []string{"building the test binary of github.com/benchspec/benchspec/executor/gotest/testdata/broken failed: go test failed:",
			`broken_test.go:6:14: cannot use "not a number"`}},
	}
	b := &Builder{CacheDir: t.TempDir()}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			_, err := b.loadIn(context.Background(), "", tt.pkg, variant{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

func TestRelativePackagesAreTheSpecFilesAndRunInTheirModule(t *testing.T) {
	skipShort(t)
	// A spec outside any module names a package of this module relative
	// to itself: the go command runs in the package's directory.
	dir := t.TempDir()
	abs, err := filepath.Abs("../../examples/gotest/codec")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.yaml")
	s, err := spec.Parse(path, []byte("version: 1\nname: t\nbenchmarks:\n  - package: ./"+rel+"\n    include: Encode\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := (&Builder{CacheDir: t.TempDir()}).Benchmarks(context.Background(), []*spec.Spec{s}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Package != abs || got[0].GoTest.ImportPath != "github.com/benchspec/benchspec/examples/gotest/codec" || got[0].GoTest.Dir != abs {
		t.Errorf("benchmarks = %+v, want those of examples/gotest/codec keyed %s", got, abs)
	}
}

func TestBenchmarksErrorsAtThePackageKey(t *testing.T) {
	skipShort(t)
	s, err := spec.Parse("s.yaml", []byte(`version: 1
name: t
benchmarks:
  - package: strings
    include: '^BenchmarkIndex$'
  - package: ./testdata/nobench
    include: x
  - include: registered
`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := (&Builder{CacheDir: t.TempDir()}).Benchmarks(context.Background(), []*spec.Spec{s}, nil)
	errs := spec.Errors(err)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "s.yaml:6:14: benchmarks[1].package: package github.com/benchspec/benchspec/executor/gotest/testdata/nobench has no benchmarks") {
		t.Errorf("errors = %v, want one at s.yaml:6:14", err)
	}
	i := slices.IndexFunc(got, func(b plan.Benchmark) bool { return b.Name == "Index" })
	if i < 0 {
		t.Fatalf("no Index among %d benchmarks", len(got))
	}
	b := got[i]
	if !b.Testing || b.Package != "strings" || b.GoTest == nil || b.GoTest.Func != "BenchmarkIndex" || b.GoTest.Dir == "" {
		t.Errorf("Index = %+v %+v", b, b.GoTest)
	}
}
