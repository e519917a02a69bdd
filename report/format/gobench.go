package format

import (
	"github.com/benchspec/benchspec/report"

	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/spec"
)

// GoBench writes the Go benchmark format
// (golang.org/design/14313-benchmark-format) with benchfmt, so that
// `benchstat base.txt new.txt` compares two reports directly. Each
// measurement iteration of each measured fork is one line, so benchstat
// sees forks × iterations samples, like the score's Cnt.
//
// Names are the ones `go test` gives the benchmark's twin (goTestName:
// "concat.Sprintf" is "BenchmarkConcat/Sprintf"; a group member's row is
// its group's with "/member=NAME"), then "/name=value" per parameter,
// "/mode=…" unless avgt and "/threads=N" for N > 1 (a group's rows:
// "/threads.NAME=N" per member) (they change what a number means), then
// "-GOMAXPROCS". File configuration is what
// `go test` writes (goos, goarch, pkg, cpu; pkg is the suite's name for
// registered benchmarks), so `benchstat -ignore pkg` lines a benchmark up
// with its go test twin. Units are ns/op, or ops/s with better=higher for
// thrpt. Settings such as warmup and forks are not written: benchstat
// would split on them, yet comparing across them is a baseline's point.
// Failed runs get go test's "--- FAIL:" line instead of results.
type GoBench struct{}

// Render writes r in the Go benchmark format to w.
func (GoBench) Render(w io.Writer, r *report.Report) error {
	bw := benchfmt.NewWriter(w)
	units := map[string]bool{}
	for i := range r.Runs {
		run := &r.Runs[i]
		name := goBenchName(run, r.Env.GOMAXPROCS)
		if run.Skipped() {
			if _, err := fmt.Fprintf(w, "--- SKIP: Benchmark%s\n    %s\n", name, OneLine(run.SkipReason)); err != nil {
				return err
			}
			continue
		}
		if run.NoScore() && !run.NoTime() {
			if _, err := fmt.Fprintf(w, "--- FAIL: Benchmark%s\n    %s\n", name, OneLine(run.Error)); err != nil {
				return err
			}
			continue
		}
		unit, scale := goBenchUnit(run)
		if unit == "ops/s" && !units[unit] {
			units[unit] = true
			meta := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: unit, Key: "better"},
				OrigUnit: unit, Value: "higher"}
			if err := bw.Write(meta); err != nil {
				return err
			}
		}
		config := goBenchConfig(r, run)
		for _, f := range run.Forks {
			if f.Warmup || f.Error != "" {
				continue
			}
			first := true
			for _, it := range f.Iterations {
				if it.Phase != protocol.PhaseMeasurement || !it.Score.Valid() && !it.NoTime {
					continue
				}
				res := &benchfmt.Result{Config: config, Name: benchfmt.Name(name), Iters: max(int(math.Round(float64(it.Ops))), 1)}
				if !it.NoTime {
					// As go test, without ns/op when the benchmark
					// removed it: its own metrics only.
					res.Values = []benchfmt.Value{{Value: sig6(float64(it.Score) * scale), Unit: unit}}
				}
				res.Values = appendMetrics(res.Values, it.Metrics)
				if first {
					res.Values = appendMetrics(res.Values, f.Metrics)
					first = false
				}
				if err := bw.Write(res); err != nil {
					return fmt.Errorf("writing Go benchmark format: %w", err)
				}
			}
		}
	}
	return nil
}

// goBenchName is the result name of a run without the "Benchmark" prefix.
func goBenchName(run *report.Run, gomaxprocs int) string {
	var b strings.Builder
	base := run.Benchmark
	if run.Member != "" {
		base = run.Group
	}
	if run.GoTest == nil { // a package benchmark's name is go test's already, dots and all
		base = goTestName(base)
	}
	b.WriteString(goBenchField(base, false))
	if run.Member != "" {
		// a sub-name, not JMH's "rw:write": benchstat's filters and
		// projections take /member:write and -col /member, a ':' unquoted
		// in neither
		b.WriteString("/member=" + goBenchField(run.Member, true))
	}
	for _, k := range sortedKeys(run.Params) {
		b.WriteString("/" + goBenchField(k, true) + "=" + goBenchField(run.Params[k], true))
	}
	if run.Mode != spec.ModeAverageTime {
		b.WriteString("/mode=" + run.Mode.String())
	}
	if g := run.GroupThreads(); g != "" {
		// each member's a key of its own, "/threads.read=3": benchstat
		// selects and projects them (-col /threads.read)
		for _, m := range strings.Split(g, ",") {
			name, n, _ := strings.Cut(m, ":")
			b.WriteString("/threads." + goBenchField(name, true) + "=" + n)
		}
	} else if run.Threads > 1 {
		fmt.Fprintf(&b, "/threads=%d", run.Threads)
	}
	if n, err := strconv.Atoi(run.Settings.Env["GOMAXPROCS"]); err == nil && n > 0 {
		gomaxprocs = n
	}
	if gomaxprocs > 1 {
		fmt.Fprintf(&b, "-%d", gomaxprocs)
	}
	return b.String()
}

// goTestName is the name `go test` would print, without "Benchmark", for
// the twin of the benchmark registered as name: the part before the first
// dot names the benchmark function, its first letter upper-cased as go
// test requires of BenchmarkXxx, and every further dot-separated part a
// sub-benchmark. "concat.Sprintf" is "Concat/Sprintf" (BenchmarkConcat
// calling b.Run("Sprintf", …)), "empty" is "Empty", and a name that is
// already a go test name — a `package:` entry's "Encode" — stays as it is.
func goTestName(name string) string {
	name = strings.ReplaceAll(name, ".", "/")
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}

// goBenchField replaces what would split a result line's fields, and in
// sub-name parts also '/' and '=', with '_'.
func goBenchField(s string, part bool) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || part && (r == '/' || r == '=') {
			return '_'
		}
		return r
	}, s)
}

// goBenchUnit is the unit a run's iteration scores are written in, and
// the factor that converts them to it.
func goBenchUnit(run *report.Run) (unit string, scale float64) {
	ns := report.UnitNs(run.Settings.TimeUnit)
	if run.Mode.IsRate() {
		return "ops/s", 1e9 / ns // ops per unit → ops per second
	}
	return "ns/op", ns
}

func goBenchConfig(r *report.Report, run *report.Run) []benchfmt.Config {
	kv := [][2]string{
		{"goos", r.Env.GOOS}, {"goarch", r.Env.GOARCH}, {"pkg", r.Suite}, {"cpu", r.Env.CPU},
	}
	if g := run.GoTest; g != nil && len(g.Labels) > 0 {
		// The test binary's own header, byte for byte (a cpu line's
		// trailing blanks included: benchfmt keeps them, so benchstat
		// would not pair a trimmed one with go test's).
		config := make([]benchfmt.Config, 0, len(g.Labels))
		for _, c := range g.Labels {
			if !strings.ContainsAny(c[0]+c[1], "\n\r") {
				config = append(config, benchfmt.Config{Key: c[0], Value: []byte(c[1]), File: true})
			}
		}
		return config
	}
	config := make([]benchfmt.Config, 0, len(kv))
	for _, c := range kv {
		if c[1] != "" {
			// Verbatim but for line breaks: go test's cpu line keeps a
			// brand string's trailing spaces, and benchstat tables by it.
			value := strings.NewReplacer("\n", " ", "\r", " ").Replace(c[1])
			config = append(config, benchfmt.Config{Key: c[0], Value: []byte(value), File: true})
		}
	}
	return config
}

// appendMetrics appends the finite metrics, by name, as values whose unit
// is the metric's name.
func appendMetrics(values []benchfmt.Value, metrics map[string]report.Float) []benchfmt.Value {
	for _, name := range sortedKeys(metrics) {
		if v := metrics[name]; v.Valid() {
			values = append(values, benchfmt.Value{Value: sig6(float64(v)), Unit: goBenchField(name, false)})
		}
	}
	return values
}

// sig6 rounds v to 6 significant digits, more than any benchmark resolves.
func sig6(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return r
}
