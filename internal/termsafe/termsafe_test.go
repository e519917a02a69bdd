package termsafe

import "testing"

// TestTerminalOutputIsEscaped: escape sequences, carriage returns and
// other control characters become visible escapes; ordinary text,
// non-ASCII letters included, passes unchanged.
func TestTerminalOutputIsEscaped(t *testing.T) {
	tests := []struct{ in, str, line string }{
		{"plain ünïcode µs", "plain ünïcode µs", "plain ünïcode µs"},
		{"\x1b[2J\x1b]0;pwned\x07", `\x1b[2J\x1b]0;pwned\x07`, `\x1b[2J\x1b]0;pwned\x07`},
		{"ok\rFAIL", `ok\rFAIL`, `ok\rFAIL`},
		{"a\nb\tc", "a\nb\tc", `a\nb\tc`},
		{"c1\u009bm del\x7f", `c1\x9bm del\x7f`, `c1\x9bm del\x7f`},
		{"bidi\u202egnp.exe", `bidi\u202egnp.exe`, `bidi\u202egnp.exe`},
		{"bad\xffutf8", `bad\xffutf8`, `bad\xffutf8`},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.str {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.str)
		}
		if got := Line(tt.in); got != tt.line {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}
