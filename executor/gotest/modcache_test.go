package gotest

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileProxy writes a GOPROXY directory that serves module example.com/dep
// v1.0.0, whose package has a benchmark with a sub-benchmark and reads
// its testdata, and returns its file:// URL.
func fileProxy(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/dep\n\ngo 1.22\n",
		"dep.go":          "package dep\n\nfunc Add(a, b int) int { return a + b }\n",
		"testdata/in.txt": "input\n",
		"dep_test.go": "package dep\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar sink int\n\n" +
			"func BenchmarkAdd(b *testing.B) {\n\tif _, err := os.ReadFile(\"testdata/in.txt\"); err != nil {\n\t\tb.Fatal(err)\n\t}\n" +
			"\tb.Run(\"one\", func(b *testing.B) {\n\t\tfor b.Loop() {\n\t\t\tsink = Add(sink, 1)\n\t\t}\n\t})\n}\n",
	}
	dir := filepath.Join(root, "example.com", "dep", "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(dir, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, body := range files {
		w, err := zw.Create("example.com/dep@v1.0.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()
	for name, body := range map[string]string{
		"list":        "v1.0.0\n",
		"v1.0.0.info": `{"Version":"v1.0.0","Time":"2026-01-01T00:00:00Z"}`,
		"v1.0.0.mod":  files["go.mod"],
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "file://" + root
}

// mainWithDep sets the go command up to fetch from fileProxy into a
// module cache of the test's, writes module example.com/main requiring
// example.com/dep v1.0.0 into dir, downloads it, and returns the go.mod
// it wrote.
func mainWithDep(t *testing.T, dir string) string {
	t.Helper()
	t.Setenv("GOPROXY", fileProxy(t))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-modcacherw") // so that t.TempDir can remove it
	gomod := "module example.com/main\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	dl := exec.Command("go", "mod", "download", "example.com/dep")
	dl.Dir = dir
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	return gomod
}

// A package of a dependency lives in the read-only module cache, where
// the go command refuses an -overlay: it is built from a copy of its
// module, through a -modfile, and the spec's go.mod and go.sum stay as
// they were.
func TestLoadBuildsAPackageOfTheModuleCache(t *testing.T) {
	skipShort(t)
	main := t.TempDir()
	gomod := mainWithDep(t, main)
	gosum, _ := os.ReadFile(filepath.Join(main, "go.sum"))

	cache := t.TempDir()
	ctx := context.Background()
	p, err := (&Builder{CacheDir: cache}).loadIn(ctx, main, "example.com/dep", variant{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Dir, filepath.Join(cache, "modules")+string(filepath.Separator)) || !slices.Equal(p.Benchmarks, []string{"BenchmarkAdd"}) {
		t.Errorf("package %+v, want BenchmarkAdd built from a copy under %s/modules", p, cache)
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "testdata", "in.txt")); err != nil {
		t.Errorf("the copy lacks the module's testdata: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(main, "go.mod")); string(got) != gomod {
		t.Errorf("go.mod was written:\n%s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(main, "go.sum")); string(got) != string(gosum) {
		t.Errorf("go.sum was written:\n%s", got)
	}
	// The binary runs the benchmark, in the copy (testdata is read).
	l, err := (&Builder{CacheDir: cache}).Discover(ctx, p, map[string]bool{"BenchmarkAdd": true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Funcs["BenchmarkAdd"]; !slices.Equal(got, []string{"BenchmarkAdd/one"}) {
		t.Errorf("listed %v, want BenchmarkAdd/one", got)
	}
	// A pruned copy is not handed out by the index: it is built again.
	os.RemoveAll(p.Dir)
	again, err := (&Builder{CacheDir: cache}).loadIn(ctx, main, "example.com/dep", variant{})
	if err != nil || !fileExists(again.Dir) {
		t.Errorf("after the copy was removed: %+v, %v; want it copied and built again", again, err)
	}
}

// In workspace mode, where the go command refuses a -modfile, a
// dependency's package is built with a copy of the workspace that
// replaces its module by the copy: the workspace's build list, and the
// user's go.work untouched.
func TestLoadBuildsAPackageOfTheModuleCacheInAWorkspace(t *testing.T) {
	skipShort(t)
	t.Setenv("GOWORK", "")
	root := t.TempDir()
	main := filepath.Join(root, "main")
	if err := os.MkdirAll(main, 0o755); err != nil {
		t.Fatal(err)
	}
	mainWithDep(t, main)
	gowork := "go 1.22\n\nuse ./main\n"
	if err := os.WriteFile(filepath.Join(root, "go.work"), []byte(gowork), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := (&Builder{CacheDir: t.TempDir()}).loadIn(context.Background(), main, "example.com/dep", variant{})
	if err != nil {
		t.Fatalf("%v\nwant the package built in the workspace", err)
	}
	if !slices.Equal(p.Benchmarks, []string{"BenchmarkAdd"}) {
		t.Errorf("package %+v, want BenchmarkAdd", p)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "go.work")); string(got) != gowork {
		t.Errorf("go.work was written:\n%s", got)
	}
}

// A module's copy edited in the cache is not built: it is checked
// against the manifest written when it was copied, copied again, and
// the command is told.
func TestAnEditedModuleCopyIsCopiedAgain(t *testing.T) {
	skipShort(t)
	t.Setenv("BENCHSPEC_CACHE_NO_INDEX", "1") // build each time, as a changed module would
	main := t.TempDir()
	mainWithDep(t, main)
	cache, ctx := t.TempDir(), context.Background()
	p, err := (&Builder{CacheDir: cache}).loadIn(ctx, main, "example.com/dep", variant{})
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(p.Dir, "dep.go")
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte("package dep\n\nfunc Add(a, b int) int { return a - b }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warned []string
	if _, err := (&Builder{CacheDir: cache, Warn: func(m string) { warned = append(warned, m) }}).loadIn(ctx, main, "example.com/dep", variant{}); err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "dep.go was changed since it was copied") {
		t.Errorf("warnings %q, want one that names dep.go", warned)
	}
	if got, _ := os.ReadFile(src); string(got) != string(orig) {
		t.Errorf("the copy's dep.go is still the edited one:\n%s", got)
	}
}
