// Package gobenchtwin checks the name that --format gobench gives a
// registered benchmark against the real clients: one body, registered as
// "concat.Sprintf" and run by benchspec, and run by go test as its twin
// BenchmarkConcat/Sprintf, must land in one benchstat row. The package's
// test binary is both the suite (see examples/suitetest) and the go test
// binary of the twin.
package gobenchtwin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/examples/suitetest"
)

func TestMain(m *testing.M) { suitetest.Main(m) }

func init() { benchspec.RegisterTesting("concat.Sprintf", sprintf) }

// sprintf is the body both sides measure.
func sprintf(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		benchspec.Sink(fmt.Sprintf("%d-%s", i, "x"))
	}
}

// BenchmarkConcat is the go test twin of the registered concat.Sprintf.
func BenchmarkConcat(b *testing.B) { b.Run("Sprintf", sprintf) }

const spec = `version: 1
name: twin
defaults:
  forks: 2
  warmup:      {iterations: 1, time: 50ms}
  measurement: {iterations: 3, time: 50ms}
benchmarks:
  - include: '^concat\.Sprintf$'
`

// TestBenchstatPairsTheTwins runs the registered benchmark through
// benchspec (--format gobench) and its twin through go test (this test
// binary with -test.bench), then benchstat on both files: one table per
// unit, one row in each, a column for each file, named as go test names
// the twin.
func TestBenchstatPairsTheTwins(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	specPath := filepath.Join(dir, "twin.yaml")
	if err := os.WriteFile(specPath, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	benchspecTxt, gotestTxt := filepath.Join(dir, "benchspec.txt"), filepath.Join(dir, "gotest.txt")
	if r := suitetest.Exec(t, "run", specPath, "--format", "gobench", "--out", benchspecTxt, "--quiet"); r.Code != 0 {
		t.Fatalf("suite run = %d; stderr:\n%s", r.Code, r.Stderr)
	}
	out, err := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkConcat$/^Sprintf$",
		"-test.count=6", "-test.benchtime=50ms", "-test.benchmem").Output()
	if err != nil {
		t.Fatalf("go test -bench: %v\n%s", err, out)
	}
	if err := os.WriteFile(gotestTxt, out, 0o644); err != nil {
		t.Fatal(err)
	}
	benchstat := filepath.Join(dir, "benchstat")
	if out, err := exec.Command("go", "build", "-o", benchstat, "golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Fatalf("building benchstat: %v\n%s", err, out)
	}
	cmd := exec.Command(benchstat, "-ignore", "pkg", "gotest.txt", "benchspec.txt")
	cmd.Dir = dir
	table, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, table)
	}
	t.Logf("benchstat -ignore pkg gotest.txt benchspec.txt:\n%s", table)
	text := string(table)
	// Every table compares the two files: none holds one file alone, as
	// when the names or the configuration lines differ.
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, ".txt") && (!strings.Contains(line, "gotest.txt") || !strings.Contains(line, "benchspec.txt")) {
			t.Errorf("a table of one file (%q):\n%s", strings.TrimSpace(line), text)
		}
	}
	// One row per unit (sec/op, and B/op and allocs/op, which both sides
	// report for a func(*testing.B) run with -benchmem), each holding a
	// value for each file: go test's and benchspec's.
	rows := regexp.MustCompile(`(?m)^Concat/Sprintf(-\d+)?\s.*$`).FindAllString(text, -1)
	if len(rows) != 3 {
		t.Fatalf("want three rows Concat/Sprintf (sec/op, B/op, allocs/op), got %d:\n%s", len(rows), text)
	}
	for _, row := range rows {
		if n := strings.Count(row, "±"); n != 2 {
			t.Errorf("the row has %d values, want one per file: %q", n, row)
		}
	}
}
