package spec

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// yaml.v3 reports a syntax error with a line and no column, and for some
// parser errors the line where the enclosing construct began. The helpers
// below find the column, and a hint, by reading the line itself as YAML's
// scanner would: quoted strings, flow brackets, ": " indicators, comments.

// lineItems is what one line of YAML holds, as byte offsets into it.
type lineItems struct {
	colons      []int // ':' indicators (a key's end), outside quotes
	quotes      []int // quotes that open a quoted scalar
	unclosedQ   int   // a quote whose string does not end on the line, or -1
	openFlow    []int // '[' and '{' not closed on the line, outermost first
	flow        []int // every '[' and '{' that opens a collection
	reserved    int   // '@' or '`' where a value begins, or -1
	afterQuoted int   // text after a closed quoted scalar, or -1
}

func scanLine(s string) lineItems {
	it := lineItems{unclosedQ: -1, reserved: -1, afterQuoted: -1}
	start := true   // a value may begin here
	quoted := false // just after a closed quoted scalar
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\r' {
			i++
			continue
		}
		if c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			break
		}
		blank := i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\r'
		switch {
		case start && (c == '"' || c == '\''):
			it.quotes = append(it.quotes, i)
			j := quoteEnd(s, i)
			if j < 0 {
				it.unclosedQ = i
				return it
			}
			i, start, quoted = j+1, false, true
			continue
		case c == '[' || c == '{':
			it.flow = append(it.flow, i)
			it.openFlow = append(it.openFlow, i)
			i, start, quoted = i+1, true, false
			continue
		case c == ']' || c == '}':
			if n := len(it.openFlow); n > 0 {
				it.openFlow = it.openFlow[:n-1]
			}
			i, start, quoted = i+1, false, false
			continue
		case c == ',' && len(it.openFlow) > 0:
			i, start, quoted = i+1, true, false
			continue
		case c == ':' && (blank || len(it.openFlow) > 0 && strings.IndexByte(",]}", s[i+1]) >= 0):
			it.colons = append(it.colons, i)
			i, start, quoted = i+1, true, false
			continue
		case start && (c == '-' || c == '?') && blank:
			i++
			continue
		case start && (c == '@' || c == '`') && it.reserved < 0:
			it.reserved = i
		case quoted && it.afterQuoted < 0:
			it.afterQuoted = i
		}
		start, quoted = false, false
		i++
	}
	return it
}

// quoteEnd returns the offset of the quote that closes the quoted scalar
// opening at s[i], or -1 when it does not close on this line.
func quoteEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			j++ // '' is a quote inside a single-quoted string
		case s[j] == q:
			return j
		}
	}
	return -1
}

// validEscapes are the characters YAML allows after a backslash in a
// double-quoted string.
const validEscapes = "0abt\tnvfre \"/\\N_LPxuU\n\r"

// badEscape returns the offset in data of the first backslash that begins
// an escape YAML does not know, in the double-quoted string opening at
// data[open], with the string's text if it ends on its line; -1 if none.
func badEscape(data []byte, open int) (off int, text string) {
	for j := open + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			if j+1 < len(data) && strings.IndexByte(validEscapes, data[j+1]) < 0 {
				off = j
				if end := quoteEnd(string(lineText(data, open)), open-lineStart(data, open)); end >= 0 {
					text = string(data[open+1 : lineStart(data, open)+end])
				}
				return off, text
			}
			j++
		case '"':
			return -1, ""
		}
	}
	return -1, ""
}

// lineStart returns the offset of the line holding data[off].
func lineStart(data []byte, off int) int { return bytes.LastIndexByte(data[:off], '\n') + 1 }

// lineText returns the line holding data[off], without its newline.
func lineText(data []byte, off int) []byte {
	s := lineStart(data, off)
	if e := bytes.IndexByte(data[s:], '\n'); e >= 0 {
		return data[s : s+e]
	}
	return data[s:]
}

// lineOffset returns the offset of line (1-based) in data, or -1.
func lineOffset(data []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// blockProblem reports whether msg is one of yaml.v3's messages about a
// block construct that begins at the first token of the line it names.
func blockProblem(msg string) bool {
	switch msg {
	case "could not find expected ':'", "did not find expected key", "did not find expected '-' indicator", "did not find expected node content":
		return true
	}
	return false
}

// syntaxPos finds where on line (1-based) the yaml.v3 problem msg lies:
// the line and column to report, and a hint to add to the message ("" for
// none). ok is false when the text gives no better place than column 1.
func syntaxPos(data []byte, line int, msg string) (l, col int, hint string, ok bool) {
	lo := lineOffset(data, line)
	if lo < 0 {
		return line, 1, "", false
	}
	text := string(lineText(data, lo))
	it := scanLine(text)
	at := func(i int, h string) (int, int, string, bool) {
		l, c := lineCol(data, lo+i)
		return l, c, h, true
	}
	first := len(text) - len(strings.TrimLeft(text, " -\t"))
	switch {
	case strings.HasPrefix(msg, "mapping values are not allowed"):
		switch len(it.colons) {
		case 0:
		case 1:
			// The line continues the plain value of the line above.
			return at(it.colons[0], "; this line is read as part of the value above it: check its indentation, or quote that value")
		default:
			return at(it.colons[1], `; a value that holds ": " must be quoted`)
		}
	case msg == "found unknown escape character":
		for _, q := range it.quotes {
			if text[q] != '"' {
				continue
			}
			if off, s := badEscape(data, lo+q); off >= 0 {
				r, _ := utf8.DecodeRune(data[off+1:])
				h := fmt.Sprintf(` \%c in a double-quoted string, where a backslash begins an escape such as \n; `+
					`write a regular expression in single quotes, which keep backslashes as written`, r)
				if s != "" {
					h += ": '" + strings.ReplaceAll(s, "'", "''") + "'"
				}
				l, c := lineCol(data, off)
				return l, c, h, true
			}
		}
	case msg == "found unexpected end of stream" && it.unclosedQ >= 0:
		return at(it.unclosedQ, "; the quoted string that starts here is not closed")
	case strings.HasPrefix(msg, "did not find expected ',' or "):
		closer := msg[len(msg)-2]
		opener := byte('[')
		if closer == '}' {
			opener = '{'
		}
		for _, o := range it.openFlow {
			if text[o] == opener {
				return at(o, fmt.Sprintf("; the %c here is not closed", opener))
			}
		}
		for _, o := range it.flow {
			if text[o] == opener {
				return at(o, "")
			}
		}
	case msg == "found character that cannot start any token" && it.reserved >= 0:
		return at(it.reserved, fmt.Sprintf("; %c is reserved in YAML: quote the value", text[it.reserved]))
	case msg == "did not find expected '-' indicator" && strings.HasPrefix(strings.TrimLeft(text, " "), "-"):
		// yaml.v3 names the line where the list began: find its first
		// line at the list's indentation that is not an item.
		dash := len(text) - len(strings.TrimLeft(text, " "))
		for off := lo + len(text) + 1; off < len(data); off += len(lineText(data, off)) + 1 {
			next := string(lineText(data, off))
			indent := len(next) - len(strings.TrimLeft(next, " "))
			rest := strings.TrimSpace(next[indent:])
			if rest == "" || rest[0] == '#' || indent > dash || indent == dash && rest[0] == '-' {
				continue
			}
			if indent == dash {
				l, c := lineCol(data, off+indent)
				return l, c, "; a line at the list's indentation that is not an item (- ...): indent it under the item above", true
			}
			break // the list ended: no better place than where it began
		}
		return at(first, "")
	case msg == "did not find expected key" && it.afterQuoted >= 0:
		return at(it.afterQuoted, "; text after a quoted string: quote the whole value")
	case blockProblem(msg) && first < len(text):
		// The construct yaml.v3 names begins at the line's first token.
		return at(first, "")
	}
	return line, 1, "", false
}
