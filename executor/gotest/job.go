package gotest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Job is what the driver runs: each benchmark, every phase in order,
// each phase's Count iterations, one testing.RunBenchmarks call each.
type Job struct {
	Benchmarks []Bench
	Phases     []Phase
}

// Bench is one top-level benchmark function and the -test.bench pattern
// that selects within it.
type Bench struct {
	Func    string // BenchmarkTrimSpace
	Pattern string // ^BenchmarkTrimSpace$/^NoTrim$ (ExactPattern), or ^BenchmarkTrimSpace$
	// Skip is the -test.skip pattern ("": none); ExactSkip removes the
	// names below the one Pattern selects.
	Skip string
}

// Phase is a named run of Count iterations with one -test.benchtime.
type Phase struct {
	Name      string // warmup, measurement, list
	Benchtime string // 200ms, or 1x, 1000x
	Count     int
}

// Times is the -test.benchtime of n invocations: "nx".
func Times(n int) string { return strconv.Itoa(n) + "x" }

// Encode writes the job as the driver reads it from EnvJob: tab-separated
// fields, one line per benchmark and per phase.
func (j *Job) Encode() (string, error) {
	var b strings.Builder
	for _, bench := range j.Benchmarks {
		for _, s := range []string{bench.Func, bench.Pattern} {
			if s == "" || strings.ContainsAny(s, "\t\n") {
				return "", fmt.Errorf("driver: %q cannot be sent to the driver (empty, or a tab or newline in it)", s)
			}
		}
		if strings.ContainsAny(bench.Skip, "\t\n") {
			return "", fmt.Errorf("driver: %q cannot be sent to the driver (a tab or newline in it)", bench.Skip)
		}
		if bench.Skip != "" {
			fmt.Fprintf(&b, "bench\t%s\t%s\t%s\n", bench.Func, bench.Pattern, bench.Skip)
		} else {
			fmt.Fprintf(&b, "bench\t%s\t%s\n", bench.Func, bench.Pattern)
		}
		for _, p := range j.Phases {
			if p.Count < 0 || strings.ContainsAny(p.Name+p.Benchtime, "\t\n") {
				return "", fmt.Errorf("driver: invalid phase %+v", p)
			}
			fmt.Fprintf(&b, "phase\t%s\t%s\t%d\n", p.Name, p.Benchtime, p.Count)
		}
	}
	return b.String(), nil
}

// ExactPattern is the -test.bench pattern that selects exactly the
// benchmark that go test names name (BenchmarkDecode/Digits/Huffman/1e4,
// BenchmarkSub/size=8#01): per level, as go test splits names at '/',
// ^level$ with the level's regexp metacharacters quoted. Names as go test
// prints them have no white space (it rewrites it to '_'), so each level
// is matched as written.
func ExactPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// AnyLevel is the pattern level that the driver matches against any
// name.
const AnyLevel = "."

// ExactSkip is the -test.skip pattern that, beside ExactPattern(name),
// leaves out every name below name. go test matches a pattern of fewer
// levels than a name as a prefix, and b.Run names may hold '/': a
// benchmark can have both a result of its own, X/32_types, and a
// sibling X/32_types/parallel (b.Run("32 types/parallel")), which
// ExactPattern(X/32_types) alone selects as well. A skip pattern only
// applies to names with at least its levels, so X/32_types itself runs.
func ExactSkip(name string) string { return ExactPattern(name) + "/" + AnyLevel }

// Args are the test binary's flags that run the driver test driver
// (DriverTest), verbosely (testing then writes why a benchmark skipped or
// failed), once, with a benchmark's os.Exit(0) made a failure. The
// driver sets -test.bench and -test.benchtime itself, per iteration.
func Args(driver string) []string {
	return []string{"-test.run=^" + driver + "$", "-test.v=true", "-test.count=1", "-test.paniconexit0"}
}
