package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
)

// TestValidationGapsOnTheCommandLine: flags that contradict each other
// or are out of range, and a temporary directory no fork could work in,
// exit 2 with the flag or the variable named, before anything runs.
func TestValidationGapsOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "r.json")
	if err := os.WriteFile(rep, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		tmpdir string
		want   string
	}{
		{[]string{"run", "--quiet", "--verbose", goodSpec}, "", "--quiet and --verbose contradict each other"},
		{[]string{"compare", "--alpha", "NaN", rep, rep}, "", "--alpha: NaN is not between 0 and 1"},
		{[]string{"compare", "--alpha", "1", rep, rep}, "", "--alpha: 1 is not between 0 and 1"},
		{[]string{"compare", "--threshold", "Inf", rep, rep}, "", `--threshold: "Inf" is not a percentage`},
		{[]string{"compare", "--threshold", "NaN%", rep, rep}, "", `--threshold: "NaN%" is not a percentage`},
		{[]string{"run", goodSpec}, filepath.Join(dir, "missing"), "TMPDIR=" + filepath.Join(dir, "missing") + ": cannot make a directory in it"},
	}
	for _, tt := range tests { // the TMPDIR case last: t.Setenv holds to the end
		if tt.tmpdir != "" {
			t.Setenv("TMPDIR", tt.tmpdir)
		}
		var stdout, stderr bytes.Buffer
		if got := run(tt.args, &stdout, &stderr); got != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit 2 and %q", tt.args, got, stderr.String(), tt.want)
		}
	}
}

// TestCompareRefusesSelfContradictingReports: a report whose score no
// longer matches its raw data is refused by compare with exit 2, naming
// the file and the run.
func TestCompareRefusesSelfContradictingReports(t *testing.T) {
	base := filepath.Join("..", "..", "report", "compare", "testdata", "base.json")
	rep, err := readReport(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep.Runs[0].Primary.Score *= 1000
	forged := filepath.Join(t.TempDir(), "forged.json")
	var buf bytes.Buffer
	if err := report.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(forged, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	want := forged + ": report: runs[0] (" + rep.Runs[0].Key + "): score "
	if got := run([]string{"compare", base, forged}, &stdout, &stderr); got != 2 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", got, stderr.String(), want)
	}
}
