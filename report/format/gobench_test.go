package format

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchfmt"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
	"github.com/benchspec/benchspec/spec"
)

// goBenchLine is one parsed result: what benchstat groups by and reads.
type goBenchLine struct {
	Name   string // full name
	Base   string // benchfmt's base name, without sub-names and GOMAXPROCS
	Config string // file configuration, key=value space-separated
	Iters  int
	Values string // "value unit" pairs after benchfmt's tidying
}

func parseGoBench(t *testing.T, text string) ([]goBenchLine, benchfmt.UnitMetadataMap) {
	t.Helper()
	r := benchfmt.NewReader(strings.NewReader(text), "gobench.txt")
	var lines []goBenchLine
	units := benchfmt.UnitMetadataMap{}
	for r.Scan() {
		switch rec := r.Result(); rec := rec.(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		case *benchfmt.UnitMetadata:
			units[rec.UnitMetadataKey] = rec
		case *benchfmt.Result:
			var cfg, vals []string
			for _, c := range rec.Config {
				cfg = append(cfg, c.Key+"="+string(c.Value))
			}
			for _, v := range rec.Values {
				vals = append(vals, strconv.FormatFloat(v.Value, 'g', 6, 64)+" "+v.Unit)
			}
			lines = append(lines, goBenchLine{Name: rec.Name.String(), Base: string(rec.Name.Base()),
				Config: strings.Join(cfg, " "), Iters: rec.Iters, Values: strings.Join(vals, " ")})
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return lines, units
}

func TestGoBenchParsesWithBenchfmt(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	lines, units := parseGoBench(t, render(t, "gobench", report.Build(p, forks, env)))
	// Only what go test writes is configuration, so benchstat pairs these
	// with plain go test output.
	config := "goos=linux goarch=amd64 pkg=seeds cpu=Test CPU @ 3.00GHz"
	avgt, thrpt, sample := config, config, config
	want := []goBenchLine{
		// avgt: warmup fork and warmup iterations left out; allocs/op once per fork
		{"Counter/Inc1/size=10-8", "Counter", avgt, 1000000, "1e-08 sec/op 2 allocs/op"},
		{"Counter/Inc1/size=10-8", "Counter", avgt, 1000000, "1.1e-08 sec/op"},
		{"Counter/Inc1/size=10-8", "Counter", avgt, 1000000, "1.2e-08 sec/op"},
		{"Counter/Inc1/size=10-8", "Counter", avgt, 1000000, "1.2e-08 sec/op 4 allocs/op"},
		{"Counter/Inc1/size=10-8", "Counter", avgt, 1000000, "1.3e-08 sec/op"},
		{"Counter/Inc1/size=10-8", "Counter", avgt, 1000000, "1.4e-08 sec/op"},
		// thrpt: 5 ops/us is 5e6 ops/s
		{"Counter/Inc1/size=1000/mode=thrpt-8", "Counter", thrpt, 5000000, "5e+06 ops/s"},
		// sample: the mean of each iteration's samples, 1..500 ns and 501..1000 ns
		{"Log/Classic/mode=sample-8", "Log", sample, 500, "2.505e-07 sec/op"},
		{"Log/Classic/mode=sample-8", "Log", sample, 500, "7.505e-07 sec/op"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("parsed results (-want +got):\n%s", diff)
	}
	if got := units.GetBetter("ops/s"); got != 1 {
		t.Errorf("ops/s better = %d, want 1 (higher)", got)
	}
}

func TestGoBenchName(t *testing.T) {
	for _, tc := range []struct {
		run        report.Run
		gomaxprocs int
		want       string
	}{
		// Registered names become their go test twin's: the first part
		// the function, capitalised, the rest sub-benchmarks.
		{report.Run{Benchmark: "empty", Mode: "avgt"}, 1, "Empty"},
		{report.Run{Benchmark: "log.Classic", Mode: "avgt"}, 8, "Log/Classic-8"},
		{report.Run{Benchmark: "concat.Sprintf", Mode: "avgt"}, 8, "Concat/Sprintf-8"},
		{report.Run{Benchmark: "codec.json.Decode", Mode: "avgt"}, 1, "Codec/json/Decode"},
		{report.Run{Benchmark: "Encode", Mode: "avgt"}, 4, "Encode-4"}, // a package: entry's name stays
		{report.Run{Benchmark: "a b", Mode: "avgt", Params: map[string]string{"z": "1", "a": "x/y=z w"}}, 2, "A_b/a=x_y_z_w/z=1-2"},
		{report.Run{Benchmark: "n", Mode: "avgt", Settings: spec.Settings{Env: map[string]string{"GOMAXPROCS": "4"}}}, 8, "N-4"},
		// What go test does not measure is named: the mode, threads.
		{report.Run{Benchmark: "c", Mode: "thrpt", Threads: 2}, 2, "C/mode=thrpt/threads=2-2"},
		// A group's row, and a member's row as a sub-benchmark of it.
		{report.Run{Benchmark: "rw", Group: "rw", Mode: "thrpt", Threads: 4}, 8, "Rw/mode=thrpt/threads=4-8"},
		{report.Run{Benchmark: "q.rw:get", Group: "q.rw", Member: "get", Mode: "avgt", Threads: 3, Params: map[string]string{"n": "1"}}, 1, "Q/rw/member=get/n=1/threads=3"},
	} {
		if got := goBenchName(&tc.run, tc.gomaxprocs); got != tc.want {
			t.Errorf("goBenchName(%+v, %d) = %q, want %q", tc.run, tc.gomaxprocs, got, tc.want)
		}
	}
}

// TestGoBenchGroupParses: a group's rows parse with benchfmt as the
// group's benchmark and its members' sub-benchmarks, each named with every
// member's threads, so that two runs of a group on other threads differ.
func TestGoBenchGroupParses(t *testing.T) {
	lines, _ := parseGoBench(t, render(t, "gobench", report.Build(reporttest.Group(300))))
	names := map[string]int{}
	for _, l := range lines {
		if l.Base != "Rw" && l.Base != "Counter" {
			t.Errorf("%s: base %q", l.Name, l.Base)
		}
		names[l.Name]++
	}
	want := map[string]int{"Rw/mode=thrpt/threads.write=1/threads.read=3-8": 6, "Rw/member=write/mode=thrpt/threads.write=1/threads.read=3-8": 6,
		"Rw/member=read/mode=thrpt/threads.write=1/threads.read=3-8": 6, "Counter/Inc-8": 6}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("results per name (-want +got):\n%s", diff)
	}
}
