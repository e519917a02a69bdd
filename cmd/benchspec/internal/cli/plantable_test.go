package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPlanTableAlignsColumns: plan prints its runs as a borderless table
// whose columns line up, run numbers and estimates right-aligned, and no
// line ending in spaces.
func TestPlanTableAlignsColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	body := "version: 1\nname: t\ndefaults: {modes: [avgt, thrpt], forks: 1, measurement: {iterations: 1, time: 1s}, warmup: {iterations: 0}}\nbenchmarks:\n  - include: '.'\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"plan", path}, registry, &stdout, &stderr); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr.String())
	}
	table, _, _ := strings.Cut(stdout.String(), "\n\n")
	lines := strings.Split(table, "\n")
	if len(lines) != 15 {
		t.Fatalf("plan printed %d table lines, want a header and 14 runs:\n%s", len(lines), stdout.String())
	}
	header := lines[0]
	if !strings.HasPrefix(header, " #  Benchmark  ") || !strings.HasSuffix(header, "Estimate") {
		t.Errorf("header %q: want the run number right-aligned over two digits", header)
	}
	mode, estimate := strings.Index(header, "Mode"), utf8.RuneCountInString(header)
	for _, l := range lines[1:] {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %q ends in spaces", l)
		}
		if utf8.RuneCountInString(l) != estimate || !strings.HasSuffix(l, "s") { // "×" is one column
			t.Errorf("line %q: the estimate does not end under the header's (column %d)", l, estimate)
		}
		if m := l[mode:]; !strings.HasPrefix(m, "avgt") && !strings.HasPrefix(m, "thrpt") {
			t.Errorf("line %q: no mode under the header's Mode (column %d)", l, mode)
		}
	}
	if !strings.HasPrefix(lines[9], " 9  ") || !strings.HasPrefix(lines[10], "10  ") {
		t.Errorf("run numbers are not right-aligned:\n%s", table)
	}
}
