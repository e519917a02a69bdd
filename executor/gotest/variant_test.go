package gotest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// TestPackageBuildsAreTheirOwnBinaries: a package entry's test binary is
// built as each build says: a build tag selects a _test.go file whose
// benchmark only that build has, each build's binary is another file of
// the cache, marked as the build's, each with an entry of the cache's
// index, from which a second Builder gets both back without confusing
// them.
func TestPackageBuildsAreTheirOwnBinaries(t *testing.T) {
	skipShort(t)
	s, err := spec.Parse("s.yaml", []byte("version: 1\nname: t\nbenchmarks:\n  - package: ./testdata/tagbench\n    include: .\n"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	tagged := &spec.Build{Name: "tagged", Tags: []string{"benchspec_tag"}}
	list := func(b *Builder, v *spec.Build) (names []string, binary, build string) {
		t.Helper()
		got, err := b.Benchmarks(context.Background(), []*spec.Spec{s}, v)
		if err != nil {
			t.Fatal(err)
		}
		for _, bm := range got {
			names = append(names, bm.GoTest.Name)
			binary, build = bm.GoTest.Binary, bm.Build
		}
		return names, binary, build
	}
	for range 2 { // built, then found in the index by another Builder
		b := &Builder{CacheDir: cache}
		plainNames, plainBin, plainBuild := list(b, nil)
		tagNames, tagBin, tagBuild := list(b, tagged)
		if diff := cmp.Diff([]string{"BenchmarkDouble"}, plainNames); diff != "" || plainBuild != "" {
			t.Errorf("plain build %q: benchmarks (-want +got):\n%s", plainBuild, diff)
		}
		if diff := cmp.Diff([]string{"BenchmarkDouble", "BenchmarkTagged"}, tagNames); diff != "" || tagBuild != "tagged" {
			t.Errorf("tagged build %q: benchmarks (-want +got):\n%s", tagBuild, diff)
		}
		if plainBin == tagBin || filepath.Dir(plainBin) != cache || filepath.Dir(tagBin) != cache {
			t.Errorf("binaries %s and %s: want two files of the cache %s", plainBin, tagBin, cache)
		}
	}
	index, _ := filepath.Glob(filepath.Join(cache, "index", "*.json"))
	index = slices.DeleteFunc(index, func(p string) bool { return strings.HasSuffix(p, ".list.json") }) // the listings
	if len(index) != 2 {
		t.Errorf("the cache's index holds %v, want an entry per build", index)
	}
}
