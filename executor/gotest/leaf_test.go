package gotest

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/spec"
)

func TestIsLeaf(t *testing.T) {
	src := `package p
func BenchmarkLoop(b *testing.B)      { for b.Loop() {} ; b.ReportAllocs(); _ = b.N }
func BenchmarkParallel(b *testing.B)  { b.RunParallel(func(pb *testing.PB) { for pb.Next() {} }) }
func BenchmarkUnnamed(*testing.B)     {}
func BenchmarkBlank(_ *testing.B)     {}
func BenchmarkRun(b *testing.B)       { b.Run("x", func(b *testing.B) {}) }
func BenchmarkClosure(b *testing.B)   { f := func() { b.Run("x", nil) }; f() }
func BenchmarkHelper(b *testing.B)    { sizes(b) }
func BenchmarkMethodValue(b *testing.B) { run := b.Run; run("x", nil) }
func BenchmarkStored(b *testing.B)    { x := b; _ = x }
func BenchmarkCallRun(b *testing.B)   { (*testing.B).Run(b, "x", nil) }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"BenchmarkLoop": true, "BenchmarkParallel": true, "BenchmarkUnnamed": true, "BenchmarkBlank": true}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		if got := isLeaf(fd); got != want[fd.Name.Name] {
			t.Errorf("isLeaf(%s) = %v, want %v", fd.Name.Name, got, want[fd.Name.Name])
		}
	}
}

// Listing runs only the functions that may have sub-benchmarks: a
// function whose body cannot call b.Run is listed as itself and never
// runs at plan time.
func TestListingRunsOnlyFunctionsThatMayHaveSubBenchmarks(t *testing.T) {
	skipShort(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	t.Setenv("LEAF_MARKER", marker)
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/leaf\n\ngo 1.24\n")
	write("leaf_test.go", `package leaf

import (
	"os"
	"testing"
)

func ran(name string) { os.WriteFile(os.Getenv("LEAF_MARKER")+"."+name, nil, 0o644) }

func BenchmarkA(b *testing.B) {
	ran("A")
	for b.Loop() {
	}
}

func BenchmarkB(b *testing.B) {
	ran("B")
	for b.Loop() {
	}
}

func BenchmarkC(b *testing.B) {
	ran("C")
	b.Run("x", func(b *testing.B) {
		for b.Loop() {
		}
	})
}
`)
	s, err := spec.Parse(filepath.Join(dir, "s.yaml"), []byte("version: 1\nname: t\nbenchmarks:\n  - package: .\n    include: .\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := (&Builder{CacheDir: t.TempDir()}).Benchmarks(context.Background(), []*spec.Spec{s}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range got {
		names = append(names, b.GoTest.Name)
	}
	if want := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC/x"}; !slices.Equal(names, want) {
		t.Errorf("listed %v, want %v", names, want)
	}
	ran, _ := filepath.Glob(marker + ".*")
	for i := range ran {
		ran[i] = strings.TrimPrefix(ran[i], marker+".")
	}
	if !slices.Equal(ran, []string{"C"}) {
		t.Errorf("ran %v at plan time, want only C (A and B cannot have sub-benchmarks)", ran)
	}
	if len(got) > 0 && !slices.ContainsFunc(got[0].GoTest.Labels, func(kv [2]string) bool { return kv[0] == "goos" }) {
		t.Errorf("labels %v, want go test's header lines", got[0].GoTest.Labels)
	}
}
