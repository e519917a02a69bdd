package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParseSpec checks what Parse promises for any input. Beyond not
// panicking (the recover guard would turn a panic into an "internal
// error", which fails here too):
//
//   - a rejected input yields only positioned errors inside the file,
//     sorted, without duplicates, none of them an internal error;
//   - an accepted input yields entries whose settings are within the
//     schema's ranges, and the hash of its bytes;
//   - parsing is deterministic.
//
// The seeds (testdata/good, testdata/bad and testdata/fuzz/FuzzParseSpec)
// run with every go test; fuzz with
//
//	go test -fuzz=FuzzParseSpec -fuzztime=3m ./spec
func FuzzParseSpec(f *testing.F) {
	for _, glob := range []string{"testdata/good/*.yaml", "testdata/bad/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		again, err2 := Parse("fuzz.yaml", data)
		if diff := cmp.Diff(errString(err), errString(err2)); diff != "" || (s == nil) != (again == nil) {
			t.Fatalf("Parse is not deterministic (-first +second):\n%s", diff)
		}
		if err != nil {
			if s != nil {
				t.Fatal("Parse returned a Spec and an error")
			}
			checkErrors(t, data, err)
			return
		}
		checkSpec(t, data, s)
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkErrors checks that err is a sorted list of distinct errors, each
// at a position inside data.
func checkErrors(t *testing.T, data []byte, err error) {
	t.Helper()
	list := Errors(err)
	if len(list) == 0 {
		t.Fatalf("error without positions: %v", err)
	}
	// An error at the end of a file without a final newline is reported
	// on the line after the last (yaml.v3 counts the end of input as a
	// new line): allow one line more than the file has.
	lines := bytes.Count(data, []byte("\n")) + 2
	for i, e := range list {
		if e.Pos.File != "fuzz.yaml" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Line > lines {
			t.Errorf("error at %v, outside the file's %d lines: %s", e.Pos, lines, e.Msg)
		}
		if e.Msg == "" || strings.Contains(e.Msg, "internal error") || strings.Contains(e.Msg, "\n") {
			t.Errorf("bad message at %v: %q", e.Pos, e.Msg)
		}
		if i > 0 {
			p, q := list[i-1].Pos, e.Pos
			if p.Line > q.Line || p.Line == q.Line && p.Col > q.Col || *list[i-1] == *e {
				t.Errorf("errors out of order or repeated: %v then %v", list[i-1], e)
			}
		}
	}
}

// checkSpec checks that an accepted spec is what the schema allows.
func checkSpec(t *testing.T, data []byte, s *Spec) {
	t.Helper()
	if len(s.Entries) == 0 {
		t.Fatal("valid spec without entries")
	}
	if s.SHA256 != sha256Hex(data) || s.Version != 1 || s.Name == "" {
		t.Errorf("spec header: version %d, name %q, sha256 %s", s.Version, s.Name, s.SHA256)
	}
	for i, e := range s.Entries {
		st := e.Settings
		switch {
		case e.Index != i || e.Include == "":
			t.Errorf("entry %d: index %d, include %q", i, e.Index, e.Include)
		case len(st.Modes) == 0 || st.Forks < 0 || st.WarmupForks < 0 || st.Measurement.Iterations < 1 || st.Warmup.Iterations < 0:
			t.Errorf("entry %d: counts out of range: %+v", i, st)
		case st.Measurement.BatchSize < 1 || st.Warmup.BatchSize < 1 || st.OpsPerInvocation < 1:
			t.Errorf("entry %d: batch sizes out of range: %+v", i, st)
		case st.Threads < 1 && st.Threads != ThreadsMax:
			t.Errorf("entry %d: threads %d", i, st.Threads)
		case st.Timeout <= 0 || st.Measurement.Time <= 0 || st.Warmup.Time <= 0:
			t.Errorf("entry %d: durations out of range: %+v", i, st)
		}
		for _, m := range st.Modes {
			if !m.Valid() {
				t.Errorf("entry %d: mode %q is no mode (all not expanded?)", i, m)
			}
		}
	}
}
