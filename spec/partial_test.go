package spec

import (
	"strings"
	"testing"
)

// TestParsePartial: with the errors, the spec without what they are
// about, for a front end to check against the benchmarks; none when an
// error is about the file as a whole.
func TestParsePartial(t *testing.T) {
	const good = "version: 1\nname: t\n"
	for _, c := range []struct {
		name, body string
		includes   []string // of the partial spec; nil for none
		modes      string   // of its first entry
	}{
		{"bad default mode", "defaults: {modes: [avgtt]}\nbenchmarks:\n  - include: a\n", []string{"a"}, "[avgt]"},
		{"unknown key in an entry", "benchmarks:\n  - include: a\n    forkz: 2\n    modes: [thrpt]\n  - include: b\n", []string{"a", "b"}, "[thrpt]"},
		{"bad setting of an entry", "defaults: {modes: [ss]}\nbenchmarks:\n  - include: a\n    modes: [nope]\n", []string{"a"}, "[ss]"},
		{"bad include", "benchmarks:\n  - include: '('\n  - include: b\n", []string{"b"}, "[avgt]"},
		{"bad params", "benchmarks:\n  - include: a\n    params: {n: {x: 1}}\n  - include: b\n", []string{"b"}, "[avgt]"},
		{"entry without include", "benchmarks:\n  - forks: 1\n  - include: b\n", []string{"b"}, "[avgt]"},
		{"bad version", "benchmarks:\n  - include: a\n", nil, ""},
		{"syntax", "benchmarks:\n  - include: [a\n", nil, ""},
		{"duplicate key", "benchmarks:\n  - include: a\n    forks: 1\n    forks: 2\n", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := good + c.body
			if c.name == "bad version" {
				body = "version: 7\nname: t\n" + c.body
			}
			s, err := ParsePartial("s.yaml", []byte(body))
			if err == nil {
				t.Fatal("no error")
			}
			if full, _ := Parse("s.yaml", []byte(body)); full != nil {
				t.Error("Parse returned a spec along with errors")
			}
			if c.includes == nil {
				if s != nil {
					t.Errorf("partial spec with %d entries, want none", len(s.Entries))
				}
				return
			}
			if s == nil {
				t.Fatalf("no partial spec; errors: %v", err)
			}
			var got []string
			for _, e := range s.Entries {
				got = append(got, e.Include)
			}
			if strings.Join(got, " ") != strings.Join(c.includes, " ") {
				t.Errorf("entries %q, want %q", got, c.includes)
			}
			if m := fmtModes(s.Entries[0].Settings.Modes); m != c.modes {
				t.Errorf("first entry's modes %s, want %s", m, c.modes)
			}
		})
	}
}

func fmtModes(ms []Mode) string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m))
	}
	return "[" + strings.Join(out, " ") + "]"
}
