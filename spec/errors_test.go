package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// parseFiles parses every file and returns the valid specs, in order, and
// the number of problems (PrintErrors' count). What a validate command
// prints of them is cmd/benchspec/internal/cli's TestValidateOutput.
func parseFiles(paths []string) ([]*Spec, int) {
	var specs []*Spec
	n := 0
	for _, path := range paths {
		s, err := ParseFile(path)
		if err != nil {
			n += PrintErrors(io.Discard, err)
			continue
		}
		specs = append(specs, s)
	}
	return specs, n
}

func TestGoodFiles(t *testing.T) {
	specs, n := parseFiles([]string{"testdata/good/design.yaml", "testdata/good/full.yaml", "testdata/good/minimal.yaml"})
	if n != 0 || len(specs) != 3 {
		t.Fatalf("parsed %d specs, %d errors; want 3, 0", len(specs), n)
	}
	for i, want := range []int{1, 2, 1} {
		if got := len(specs[i].Entries); got != want {
			t.Errorf("%s: %d entries, want %d", specs[i].Path, got, want)
		}
	}
	if diff := cmp.Diff(DefaultSettings(), specs[2].Entries[0].Settings); diff != "" {
		t.Errorf("minimal spec: settings differ from the built-in defaults (-want +got):\n%s", diff)
	}
	// design.yaml, the founding design's example, spells out that
	// design's defaults (3 forks of 3 + 5 iterations of 1 s), plus GOGC;
	// the built-in defaults have since become many short forks.
	design := DefaultSettings()
	design.Env["GOGC"] = "100"
	design.Forks = 3
	design.Warmup = Iterations{Iterations: 3, Time: time.Second, BatchSize: 1}
	design.Measurement = Iterations{Iterations: 5, Time: time.Second, BatchSize: 1}
	if diff := cmp.Diff(design, specs[0].Defaults); diff != "" {
		t.Errorf("design spec: defaults mismatch (-want +got):\n%s", diff)
	}
}

func TestParseFilesBad(t *testing.T) {
	specs, n := parseFiles([]string{"testdata/good/minimal.yaml", "testdata/bad/duplicate.yaml", "testdata/nonexistent.yaml"})
	if n != 3 || len(specs) != 1 {
		t.Errorf("parsed %d specs, %d errors; want 1, 3", len(specs), n)
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
