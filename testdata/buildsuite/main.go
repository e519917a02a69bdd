// Command buildsuite is a suite whose builds differ observably, for the
// end-to-end test of a spec's builds (e2e_programs_test.go): its benchmark
// reports the build tag it was built with (tagged.go, untagged.go) and
// the -gcflags of its build.
package main

import (
	"runtime/debug"

	"github.com/benchspec/benchspec"
)

func init() {
	benchspec.Register("builds.sum", func(b *benchspec.B) {
		x := 0
		for b.Loop() {
			x += tag
		}
		benchspec.Sink(x)
		b.ReportMetric(tag, "tag")
		b.ReportMetric(gcflag("-l"), "noinline")
	})
}

// gcflag is 1 when the binary was built with -gcflags=flags, else 0.
func gcflag(flags string) float64 {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-gcflags" && s.Value == flags {
				return 1
			}
		}
	}
	return 0
}

func main() { benchspec.Main() }
