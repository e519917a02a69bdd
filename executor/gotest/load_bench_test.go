package gotest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkLoadSideBySide is the warm-cache figure of docs/performance.md: in each
// round, for the same package, the build path (BENCHSPEC_CACHE_NO_INDEX:
// go list, the driver overlay and go test -c, with Go's own build cache
// warm, as a first `run` of a package pays it) and then the warm path (a
// new Builder on the same cache: the fingerprint finds the binary and
// its listing, no go command runs), each with a new Builder as a new
// `run` has. It reports both times per round and their ratio:
//
//	go test -run '^$' -bench LoadSideBySide -benchtime 5x ./executor/gotest
//
// BENCHSPEC_LOAD_PACKAGE names the package (default: examples/gotest/codec
// of this module; an import path such as strings works too).
func BenchmarkLoadSideBySide(b *testing.B) {
	pkg := os.Getenv("BENCHSPEC_LOAD_PACKAGE")
	if pkg == "" {
		abs, err := filepath.Abs("../../examples/gotest/codec")
		if err != nil {
			b.Fatal(err)
		}
		pkg = abs
	}
	cache := b.TempDir()
	ctx := context.Background()
	os.Unsetenv("BENCHSPEC_CACHE_NO_INDEX")
	// The first build fills Go's build cache and ours; it is not counted.
	if _, err := (&Builder{CacheDir: cache}).loadIn(ctx, "", pkg, variant{}); err != nil {
		b.Fatal(err)
	}
	var build, warm time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		os.Setenv("BENCHSPEC_CACHE_NO_INDEX", "1")
		t0 := time.Now()
		cold, err := (&Builder{CacheDir: cache}).loadIn(ctx, "", pkg, variant{})
		build += time.Since(t0)
		os.Unsetenv("BENCHSPEC_CACHE_NO_INDEX")
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		hot, err := (&Builder{CacheDir: cache}).loadIn(ctx, "", pkg, variant{})
		warm += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if hot.Binary != cold.Binary {
			b.Fatalf("the warm path found %s, the build made %s", hot.Binary, cold.Binary)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(build.Seconds()/n, "build-s/op")
	b.ReportMetric(warm.Seconds()/n, "warm-s/op")
	b.ReportMetric(warm.Seconds()/build.Seconds(), "warm/build")
}
