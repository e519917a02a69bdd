package spec

import "strings"

// LiteralName returns the one name a pattern such as `^sort\.Ints$`
// matches, when it is ^, a literal with only punctuation escaped, and $
// (which in Go's regexps end the text, as \A and \z do); ok is false for
// anything else. Such a pattern is a valid regexp, and the plan finds
// the one name it selects without compiling it.
func LiteralName(pattern string) (name string, ok bool) {
	body, ok := strings.CutPrefix(pattern, "^")
	if !ok {
		return "", false
	}
	if body, ok = strings.CutSuffix(body, "$"); !ok {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\':
			i++
			if i == len(body) || !isASCIIPunct(body[i]) {
				return "", false // \d, \pL, … are classes; a trailing \ escaped the $
			}
			b.WriteByte(body[i])
		case strings.IndexByte(`.+*?()|[]{}^$`, c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// isASCIIPunct reports whether c is ASCII punctuation, which a backslash
// makes literal in Go's regexps.
func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}
