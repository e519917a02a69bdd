package spec

import "testing"

// A message quotes a pattern as the spec wrote it: no backslash the
// user never typed, the escapes of a double-quoted scalar kept.
func TestPatternsAreQuotedAsWritten(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{`'^work\.Summ$'`, `'^work\.Summ$'`},
		{`^work\.Summ$`, `'^work\.Summ$'`},
		{`"^work\\.Summ$"`, `"^work\\.Summ$"`},
		{`'it''s'`, `'it''s'`},
		{`"tab\there"`, `"tab\there"`},
	}
	for _, tt := range tests {
		src := "version: 1\nname: q\nbenchmarks:\n  - include: " + tt.yaml + "\n    exclude: " + tt.yaml + "\n"
		s, err := Parse("q.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tt.yaml, err)
		}
		e := &s.Entries[0]
		if got := e.QuotedInclude(); got != tt.want {
			t.Errorf("include: %s quoted as %s, want %s", tt.yaml, got, tt.want)
		}
		if got := e.QuotedExclude(); got != tt.want {
			t.Errorf("exclude: %s quoted as %s, want %s", tt.yaml, got, tt.want)
		}
	}
	// An invalid pattern's message quotes it so too.
	_, err := Parse("q.yaml", []byte("version: 1\nname: q\nbenchmarks:\n  - include: '\\d('\n"))
	if want := `q.yaml:4:14: benchmarks[0].include: invalid regular expression '\d(': missing closing ): ` + "`\\d(`"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
