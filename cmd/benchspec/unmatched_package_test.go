package main

import (
	"strings"
	"testing"
)

// An include of a package entry that matches nothing is refused by
// validate as by plan and run, on a cold cache as on a warm one, with
// the closest names and the include as the spec wrote it.
func TestUnmatchedPackageIncludeIsRefusedByEveryCommand(t *testing.T) {
	spec := subbenchSpec(t, "    include: '^BenchmarkSumm$'\n")
	// The listing cache starts empty (cold) and holds what the first
	// round listed in the second (warm).
	t.Setenv("BENCHSPEC_CACHE", t.TempDir())
	for _, cache := range []string{"cold", "warm"} {
		for _, cmd := range []string{"validate", "plan", "run"} {
			status, _, stderr := runCmd(t, cmd, allowOutside, spec)
			want := spec + `:10:14: include '^BenchmarkSumm$' matches no benchmark of package`
			if status != exitUsage || !strings.Contains(stderr, want) || !strings.Contains(stderr, "closest: BenchmarkSum") ||
				strings.Contains(stderr, "no benchmarks of it are known") {
				t.Errorf("%s cache: %s = %d, stderr:\n%s\nwant 2 and %q with the closest names", cache, cmd, status, stderr, want)
			}
		}
	}
	// A valid package entry passes validate, with its runs counted.
	ok := subbenchSpec(t, "    include: '^BenchmarkSum$'\n")
	status, _, stderr := runCmd(t, "validate", allowOutside, ok)
	if status != exitOK || !strings.Contains(stderr, ": ok (1 entry)") || !strings.Contains(stderr, " runs, estimated ") {
		t.Errorf("validate = %d, stderr:\n%s\nwant 0, ok and the runs", status, stderr)
	}
}
