// Package termsafe makes text that came from outside benchspec (a
// benchmark's failure message or output, a name, a label, a file name)
// safe to print on a terminal: a control character — an escape sequence's
// ESC that would move the cursor, recolour or retitle the terminal, a
// carriage return that would overwrite what the line said — is written as
// a visible Go-style escape (\x1b, \r) instead. Every string printed to a
// terminal or a text table goes through it; it is a leaf so that any
// package may.
package termsafe

import (
	"io"
	"strings"
	"unicode/utf8"
)

// String escapes every control character of s except newline and tab
// (multi-line text such as a stack trace stays readable), and every byte
// that is not UTF-8. Text without any is returned as is, without
// allocating.
func String(s string) string { return escape(s, false) }

// Line is String for text that must stay on one line (a table cell, a
// name): newline and tab are escaped too.
func Line(s string) string { return escape(s, true) }

func escape(s string, line bool) string {
	i := firstUnsafe(s, line)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			hex(&b, s[i])
		case unsafeRune(r, line):
			switch r {
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if r < 0x100 {
					hex(&b, byte(r))
				} else {
					b.WriteString(`\u`)
					const digits = "0123456789abcdef"
					for sh := 12; sh >= 0; sh -= 4 {
						b.WriteByte(digits[r>>sh&0xf])
					}
				}
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func hex(b *strings.Builder, c byte) {
	const digits = "0123456789abcdef"
	b.WriteString(`\x`)
	b.WriteByte(digits[c>>4])
	b.WriteByte(digits[c&0xf])
}

// firstUnsafe is the offset of the first character of s to escape, or -1.
func firstUnsafe(s string, line bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeRune(rune(c), line) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || unsafeRune(r, line) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports whether r is a control character a terminal acts on:
// C0 (but newline and tab unless line), DEL, C1 (0x80–0x9f: 0x9b is a
// CSI on some terminals), and the bidirectional overrides and isolates,
// which reorder what a reader sees.
func unsafeRune(r rune, line bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return line
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Writer escapes, as String does, what is written to it before writing
// it to w: for a renderer that prints piece by piece. Each Write must
// hold whole characters (what fmt.Fprintf writes does).
func Writer(w io.Writer) io.Writer { return writer{w} }

type writer struct{ w io.Writer }

func (t writer) Write(p []byte) (int, error) {
	s := string(p)
	if firstUnsafe(s, false) < 0 {
		return t.w.Write(p)
	}
	if _, err := io.WriteString(t.w, String(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}
