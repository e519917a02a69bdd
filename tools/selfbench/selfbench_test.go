package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/worker"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

func build(t *testing.T, data []byte, reg []plan.Benchmark) *plan.Plan {
	t.Helper()
	s, err := spec.Parse("test.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build([]*spec.Spec{s}, reg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The driver looks these runs up by key; the spec must plan them with the
// forks each item alternates over.
func TestSelfbenchSpecPlansTheDriversRuns(t *testing.T) {
	p := build(t, selfbenchYAML, registry())
	got := map[string]int{}
	for _, r := range p.Runs {
		got[r.Key] = r.Settings.Forks
	}
	want := map[string]int{
		"empty:avgt":           5,
		"sqrt.Sunk:avgt":       5,
		"map.Lookup:avgt":      5,
		"log.Classic:avgt":     5,
		"sort.Ints1000:avgt":   5,
		"spin.1ms:avgt":        5,
		"sqrt.KeepAlive:avgt":  3,
		"log.Classic:sample":   5,
		"log.Classic:sample#2": 5,
		"fork.Minimal:avgt":    30,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}

func TestEfficiencySpecIs20RunsOf2Forks(t *testing.T) {
	p := build(t, efficiencyYAML, registry())
	type shape struct{ Runs, Forks, Warmup, Measurement int }
	got := shape{Runs: len(p.Runs)}
	for _, r := range p.Runs {
		s := r.Settings
		got.Forks, got.Warmup, got.Measurement = s.Forks, s.Warmup.Iterations, s.Measurement.Iterations
		if s.Warmup.Time.Milliseconds() != 100 || s.Measurement.Time.Milliseconds() != 100 {
			t.Errorf("%s: iterations of %s and %s, want 100ms", r.Key, s.Warmup.Time, s.Measurement.Time)
		}
	}
	if diff := cmp.Diff(shape{20, 2, 2, 3}, got); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
}

// Every accuracy workload needs all three bodies, or a round fails after
// minutes of measuring.
func TestAccuracyWorkloadsHaveEveryBody(t *testing.T) {
	for _, name := range append([]string{"empty", "sqrt.LoopKeepAlive"}, accuracyWorkloads...) {
		if _, ok := testBody(name, false); !ok {
			t.Errorf("%s: no `for b.Loop()` testing.B body", name)
		}
	}
	for _, name := range accuracyWorkloads {
		if _, ok := testBody(name, true); !ok {
			t.Errorf("%s: no `for range b.N` testing.B body", name)
		}
	}
	// Item 2 judges benchspec's `for range b.Invocations()` form and
	// shows its `for b.Loop()` form beside it: both must be registered.
	registered := map[string]bool{}
	for _, b := range registry() {
		registered[b.Name] = true
	}
	for _, name := range accuracyWorkloads {
		for _, n := range []string{name, name + invocationsSuffix} {
			if !registered[n] {
				t.Errorf("%s: no benchspec body registered", n)
			}
		}
	}
}

func TestAlternateRotatesTheFirst(t *testing.T) {
	var got []string
	step := func(name string) func(int) error {
		return func(round int) error {
			got = append(got, fmt.Sprint(name, round))
			return nil
		}
	}
	if err := alternate(3, step("A"), step("B"), step("C")); err != nil {
		t.Fatal(err)
	}
	want := "A0 B0 C0 B1 C1 A1 C2 A2 B2"
	if diff := cmp.Diff(want, strings.Join(got, " ")); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestMarkdownTable(t *testing.T) {
	var r results
	r.add(row{id: "1", measure: "a|b", benchspec: "1 ns", figure: "ratio 1.000", target: "≤ 1.10", verdict: verdict(true)})
	r.add(row{id: "4", measure: "fork", verdict: verdict(false)})
	r.note("why %d", 4)
	var b bytes.Buffer
	r.writeMarkdown(&b)
	want := `| # | measure | benchspec | reference | figure | target | result |
|---|---|---|---|---|---|---|
| 1 | a\|b | 1 ns | — | ratio 1.000 | ≤ 1.10 | met |
| 4 | fork | — | — | — | — | **missed** |

- why 4
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}

func TestNsPicksTheUnit(t *testing.T) {
	got := []string{ns(0.4567), ns(12.345), ns(5462.6), ns(1.0012e6), ns(2.5e9)}
	want := []string{"0.457 ns", "12.35 ns", "5.463 µs", "1.001 ms", "2.500 s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ns (-want +got):\n%s", diff)
	}
}

func TestSelectItems(t *testing.T) {
	var all []item
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		all = append(all, item{id: id})
	}
	ids := func(items []item) string {
		var s []string
		for _, it := range items {
			s = append(s, it.id)
		}
		return strings.Join(s, ",")
	}
	for list, want := range map[string]string{"": "1,2,3,4,5,6,7", "7,4": "4,7", " 5 ": "5", "3": "1,2,3"} {
		got, err := selectItems(all, list)
		if err != nil || ids(got) != want {
			t.Errorf("selectItems(%q) = %s, %v; want %s", list, ids(got), err, want)
		}
	}
	if _, err := selectItems(all, "4,9"); err == nil || !strings.Contains(err.Error(), `no item "9"`) {
		t.Errorf("selectItems(4,9): err = %v, want one naming item 9", err)
	}
}

func TestSelectWorkloads(t *testing.T) {
	for _, c := range []struct {
		list     string
		withSink bool
		want     string
	}{
		{"", false, strings.Join(accuracyWorkloads, ",")},
		{"sort.Ints1000, map.Lookup", false, "map.Lookup,sort.Ints1000"},
		{"map.Lookup", true, "sqrt.Sunk,map.Lookup"}, // item 3 needs sqrt.Sunk
		{"sqrt.Sunk", true, "sqrt.Sunk"},
	} {
		got, err := selectWorkloads(c.list, c.withSink)
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("selectWorkloads(%q, %v) = %v, %v; want %s", c.list, c.withSink, got, err, c.want)
		}
	}
	if _, err := selectWorkloads("map.Lookup,empty", false); err == nil || !strings.Contains(err.Error(), `no accuracy workload "empty"`) || !strings.Contains(err.Error(), "sort.Ints1000") {
		t.Errorf("selectWorkloads(map.Lookup,empty): err = %v, want one naming empty and the valid workloads", err)
	}
}

func TestParseRounds(t *testing.T) {
	for v, want := range map[string]int{"": 0, "5": 5, " 12 ": 12} {
		if got, err := parseRounds(v); err != nil || got != want {
			t.Errorf("parseRounds(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
	for _, v := range []string{"0", "-1", "five", "2.5"} {
		if _, err := parseRounds(v); err == nil || !strings.Contains(err.Error(), envRounds) {
			t.Errorf("parseRounds(%q): err = %v, want one naming %s", v, err, envRounds)
		}
	}
}

// The selection variables are checked before anything is measured: a bad
// value exits 2 at once with what was wrong, from the real command.
func TestBadSelectionExits2(t *testing.T) {
	for env, want := range map[string]string{
		envWorkloads + "=map.Lookup,nosuch": `no accuracy workload "nosuch"`,
		envRounds + "=0":                    envRounds + `="0": not a number of rounds`,
		envItems + "=2,9":                   `no item "9"`,
		envInProcess + "=none":              envInProcess + `="none": want a number of rounds`,
		envBaselineSweep + "=0":             envBaselineSweep + `="0": want a number of processes`,
		envBaselineSweep + "=2\x00" + envBaselineSettings + "=3x50us,5x": `baseline setting "5x": the duration is not a positive duration`,
	} {
		cmd := exec.Command(os.Args[0]) // no arguments: the driver, not a suite command
		cmd.Env = append(append(os.Environ(), envRunMain+"=1"), strings.Split(env, "\x00")...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), want) {
			t.Errorf("%s: %v, output %q; want exit status 2 and %q", env, err, out, want)
		}
	}
}

// Item 2 alone, on one workload, in one round: the table has that row and
// no other, and says what it left out.
func TestAccuracyRowsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a fork and two testing.B processes of 1 s each")
	}
	out := driverOutput(t, envItems+"=2", envWorkloads+"=spin.1ms", envRounds+"=1")
	var rows []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "| 2 |") || strings.HasPrefix(line, "| 1 |") || strings.HasPrefix(line, "| 3 |") {
			rows = append(rows, strings.Split(line, " | ")[1])
		}
	}
	if diff := cmp.Diff([]string{"accuracy: spin.1ms"}, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s\n%s", diff, out)
	}
	if want := "Item 2: spin.1ms, 1 round (" + envWorkloads; !strings.Contains(string(out), want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	// The row judges the `for range b.Invocations()` forks and shows the
	// `for b.Loop()` ones beside them.
	for _, want := range []string{"`for range b.Invocations()`: ", "`for b.Loop()`: fork means median ", "testing.B `for range b.N`: median "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The in-process comparison prints a row for each workload and loop form,
// each with a figure against `for range b.N`'s, whose own is 1.
func TestInProcessPrintsEveryForm(t *testing.T) {
	out := driverOutput(t, envInProcess+"=2")
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 5 || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| workload") {
			continue
		}
		got = append(got, strings.TrimPrefix(cells[0], "| ")+" "+cells[1])
		if strings.Contains(cells[1], "range b.N") && cells[4] != "1.000 |" {
			t.Errorf("%s: against itself %q, want 1.000", cells[1], cells[4])
		}
	}
	var want []string
	for _, f := range inProcessForms {
		for _, form := range inProcessFormNames {
			want = append(want, f.name+" "+form)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s\n%s", diff, out)
	}
}

func TestParseBaselineSetting(t *testing.T) {
	for v, want := range map[string]worker.BaselineSetting{
		"5x100us":                    {Warmup: 1, Iterations: 5, Time: 100 * time.Microsecond},
		"3x50µs+0w":                  {Warmup: 0, Iterations: 3, Time: 50 * time.Microsecond},
		" 2x1ms+2w ":                 {Warmup: 2, Iterations: 2, Time: time.Millisecond},
		"5x100µs+1w":                 {Warmup: 1, Iterations: 5, Time: 100 * time.Microsecond},
		worker.ForkBaseline.String(): worker.ForkBaseline,
	} {
		got, err := parseBaselineSetting(v)
		if err != nil || got != want {
			t.Errorf("parseBaselineSetting(%q) = %v, %v; want %v", v, got, err, want)
		}
		if back, err := parseBaselineSetting(got.String()); err != nil || back != got {
			t.Errorf("%v: String() %q reads back as %v, %v", got, got.String(), back, err)
		}
	}
	for v, want := range map[string]string{
		"5":         "no x",
		"0x100us":   "iterations are not a positive number",
		"5x100":     "duration",
		"5x-1ms":    "duration",
		"5x100us+w": "warmup",
		"5x100us+1": "warmup",
	} {
		if _, err := parseBaselineSetting(v); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "want NxD") {
			t.Errorf("parseBaselineSetting(%q): err = %v, want one saying %q and what is valid", v, err, want)
		}
	}
}

// Item 4 reports the error of the floor DEAD_CODE uses, overall and per
// loop form, beside the clock calibration's, and its two references: a
// Go hello world and the same forks of this program linked with
// alignFlags, both built by the go command (which the tests have).
func TestForkCostReportsTheFloorsError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 60 forks and 90 processes, builds this program")
	}
	out := driverOutput(t, envItems+"=4")
	for _, re := range []string{
		`\| 4 \| … a Go hello world \(.*\), start to exit: what any Go process costs here \| [0-9.]+ ms \|`,
		`\| 4 \| … the same forks of this program linked with ` + "`" + regexp.QuoteMeta(alignFlags) + "`" + ` .*, in blocks of 10 taking turns with the forks above \(median of 30\) \| [0-9.]+ ms \([0-9.]+ ms – [0-9.]+ ms\); exec to main [0-9.]+ ms`,
	} {
		if !regexp.MustCompile(re).Match(out) {
			t.Errorf("output lacks a match for %s:\n%s", re, out)
		}
	}
	for _, want := range []string{
		"… error of the fork's clock calibration (",
		"… error of the fork's empty-loop floor, DEAD_CODE's yardstick (the fastest iteration of either loop form; " + baselineText(worker.ForkBaseline.String()) + " of each)",
		"… of which each form's floor against its own reference | `for b.Loop()` median ",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The baseline sweep prints a row per setting, each from fresh
// processes.
func TestBaselineSweepPrintsEverySetting(t *testing.T) {
	out := driverOutput(t, envBaselineSweep+"=1", envBaselineSettings+"=2x25us+0w,1x50us")
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		if cells := strings.Split(line, " | "); len(cells) == 10 && strings.HasSuffix(cells[1], "s") && !strings.HasPrefix(line, "| setting") {
			got = append(got, strings.TrimPrefix(cells[0], "| "))
		}
	}
	if diff := cmp.Diff([]string{"2x25µs+0w", "1x50µs+1w"}, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s\n%s", diff, out)
	}
}

// Outside this module, this program cannot be built again: item 4 says
// so in the reference's row and measures the rest.
func TestForkCostSaysWhyAReferenceIsMissing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 30 forks and 90 processes")
	}
	out := driverOutputIn(t, t.TempDir(), envItems+"=4")
	re := `\| 4 \| … the same forks of this program linked with ` + "`" + regexp.QuoteMeta(alignFlags) + "`" + ` \(segments on 2 MiB, which the kernel can map with huge pages\) \| not measured: go build ` + regexp.QuoteMeta(alignFlags+" "+selfbenchPackage) + `: exit status 1: `
	if !regexp.MustCompile(re).Match(out) {
		t.Errorf("output lacks a match for %s:\n%s", re, out)
	}
	if !regexp.MustCompile(`\| 4 \| fork cost: minimal fork, wall time \(median of 30\) \| [0-9.]+ ms`).Match(out) {
		t.Errorf("no fork cost without the reference:\n%s", out)
	}
}

// driverOutput runs selfbench's main (envRunMain) in a fresh process of
// the test binary with env added, and returns its standard output; it
// fails the test, with the process's standard error, if the run fails.
func driverOutput(t *testing.T, env ...string) []byte {
	t.Helper()
	return driverOutputIn(t, "", env...)
}

// driverOutputIn is driverOutput with dir as the working directory.
func driverOutputIn(t *testing.T, dir string, env ...string) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), envRunMain+"=1"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	return out
}

func TestPercentile(t *testing.T) {
	xs := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10, 11}
	if got := percentile(xs, 0.1); got != 2 {
		t.Errorf("percentile(0.1) = %v, want 2", got)
	}
	if got := percentile(xs, 0.5); got != 6 {
		t.Errorf("percentile(0.5) = %v, want 6", got)
	}
}

// envRunMain makes the test binary run selfbench's main instead of the
// tests (TestBadSelectionExits2).
const envRunMain = "SELFBENCH_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envRunMain) == "1" {
		main()
	}
	os.Exit(m.Run())
}
