package spec

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGoodFiles(t *testing.T) {
	var buf bytes.Buffer
	specs, n := ValidateFiles(&buf, []string{"testdata/good/design.yaml", "testdata/good/full.yaml", "testdata/good/minimal.yaml"})
	want := "testdata/good/design.yaml: ok (1 entry)\n" +
		"testdata/good/full.yaml: ok (2 entries)\n" +
		"testdata/good/minimal.yaml: ok (1 entry)\n" +
		"3 files, 0 errors\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("output mismatch (-want +got):\n%s", diff)
	}
	if n != 0 || len(specs) != 3 {
		t.Fatalf("ValidateFiles = %d specs, %d errors; want 3, 0", len(specs), n)
	}
	if diff := cmp.Diff(DefaultSettings(), specs[2].Entries[0].Settings); diff != "" {
		t.Errorf("minimal spec: settings differ from the built-in defaults (-want +got):\n%s", diff)
	}
	// design.yaml, the founding design's example, spells out the built-in
	// defaults, plus GOGC.
	design := DefaultSettings()
	design.Env["GOGC"] = "100"
	if diff := cmp.Diff(design, specs[0].Defaults); diff != "" {
		t.Errorf("design spec: defaults mismatch (-want +got):\n%s", diff)
	}
}

func TestValidateFilesBad(t *testing.T) {
	var buf bytes.Buffer
	specs, n := ValidateFiles(&buf, []string{"testdata/good/minimal.yaml", "testdata/bad/duplicate.yaml", "testdata/nonexistent.yaml"})
	want := []string{
		"testdata/good/minimal.yaml: ok (1 entry)",
		`testdata/bad/duplicate.yaml:5:3: duplicate key "forks" (first defined at line 4, column 3)`,
		`testdata/bad/duplicate.yaml:8:5: duplicate key "include" (first defined at line 7, column 5)`,
		"read spec: open testdata/nonexistent.yaml: no such file or directory",
		"3 files, 3 errors",
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")); diff != "" {
		t.Errorf("output mismatch (-want +got):\n%s", diff)
	}
	if n != 3 || len(specs) != 1 {
		t.Errorf("ValidateFiles = %d specs, %d errors; want 1, 3", len(specs), n)
	}
}

func TestErrors(t *testing.T) {
	one := &Error{Pos: Pos{File: "a.yaml", Line: 2, Col: 3}, Msg: "bad"}
	list := ErrorList{one, {Pos: Pos{File: "a.yaml", Line: 4, Col: 1}, Msg: "worse"}}
	tests := []struct {
		name string
		err  error
		want []*Error
	}{
		{"nil", nil, nil},
		{"list", list, list},
		{"wrapped list", fmt.Errorf("run: %w", list), list},
		{"single", one, []*Error{one}},
		{"wrapped single", fmt.Errorf("x: %w", one), []*Error{one}},
		{"plain", errors.New("plain"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Errors(tt.err)); diff != "" {
				t.Errorf("Errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrintErrors(t *testing.T) {
	list := ErrorList{
		{Pos: Pos{File: "a.yaml", Line: 2, Col: 3}, Msg: "bad"},
		{Pos: Pos{File: "a.yaml", Line: 4, Col: 1}, Msg: "worse"},
	}
	tests := []struct {
		name  string
		err   error
		want  string
		count int
	}{
		{"nil", nil, "", 0},
		{"list", list, "a.yaml:2:3: bad\na.yaml:4:1: worse\n", 2},
		{"plain", errors.New("open x: denied"), "open x: denied\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if n := PrintErrors(&buf, tt.err); n != tt.count {
				t.Errorf("PrintErrors returned %d, want %d", n, tt.count)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("output mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		files, errs int
		want        string
	}{
		{1, 0, "1 file, 0 errors"},
		{1, 1, "1 file, 1 error"},
		{2, 5, "2 files, 5 errors"},
	}
	for _, tt := range tests {
		if got := Summary(tt.files, tt.errs); got != tt.want {
			t.Errorf("Summary(%d, %d) = %q, want %q", tt.files, tt.errs, got, tt.want)
		}
	}
}

func TestErrorListSort(t *testing.T) {
	e := func(line, col int, msg string) *Error {
		return &Error{Pos: Pos{File: "f", Line: line, Col: col}, Msg: msg}
	}
	got := ErrorList{e(3, 1, "c"), e(1, 5, "b"), e(1, 5, "a"), e(3, 1, "c"), e(1, 2, "z")}.sort()
	want := ErrorList{e(1, 2, "z"), e(1, 5, "a"), e(1, 5, "b"), e(3, 1, "c")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sort mismatch (-want +got):\n%s", diff)
	}
}
