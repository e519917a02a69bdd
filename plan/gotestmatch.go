package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A NameFilter selects go test benchmark names the way `go test -bench`
// (include) or `go test -skip` (exclude) does: the pattern is split at
// '/' outside brackets and parentheses into one unanchored regexp per
// name level, and at '|' outside them into alternatives; each level
// matches the level of the name at the same depth. White space in the
// pattern is rewritten to '_', as go test rewrites it in names.
type NameFilter struct {
	alts [][]*regexp.Regexp
}

// CompileNameFilter compiles a -bench style pattern.
func CompileNameFilter(pattern string) (*NameFilter, error) {
	f := &NameFilter{}
	for _, alt := range splitPattern(pattern) {
		var levels []*regexp.Regexp
		for i, p := range alt {
			re, err := regexp.Compile(rewriteName(p))
			if err != nil {
				return nil, fmt.Errorf("level %d (%q): %w", i+1, p, err)
			}
			levels = append(levels, re)
		}
		f.alts = append(f.alts, levels)
	}
	return f, nil
}

// Match reports whether the name's levels (BenchmarkDecode, Digits, …)
// match: ok when every level the pattern has matches the level at its
// depth, partial when the pattern has more levels than the name.
func (f *NameFilter) Match(levels []string) (ok, partial bool) {
	for _, alt := range f.alts {
		if ok, partial = matchLevels(alt, levels); ok {
			return ok, partial
		}
	}
	return false, false
}

// Selects reports whether include selects the benchmark named levels as
// go test -bench runs it: every pattern level matches and the name is at
// least as deep as the pattern (a shallower name is only a parent of
// what the pattern selects).
func (f *NameFilter) Selects(levels []string) bool {
	ok, partial := f.Match(levels)
	return ok && !partial
}

// Excludes reports whether an exclude pattern removes the name, as go
// test -skip does: a full match, never a partial one.
func (f *NameFilter) Excludes(levels []string) bool {
	ok, partial := f.Match(levels)
	return ok && !partial
}

func matchLevels(pattern []*regexp.Regexp, levels []string) (ok, partial bool) {
	for i, s := range levels {
		if i >= len(pattern) {
			break
		}
		if !pattern[i].MatchString(s) {
			return false, false
		}
	}
	return true, len(levels) < len(pattern)
}

// splitPattern splits a -bench pattern into alternatives of levels: '/'
// and '|' split only outside brackets and parentheses, and a
// backslash-escaped character never splits.
func splitPattern(s string) [][]string {
	var alts [][]string
	var levels []string
	brackets, parens := 0, 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			if brackets > 0 {
				brackets--
			}
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				levels = append(levels, s[start:i])
				start = i + 1
				if s[i] == '|' {
					alts = append(alts, levels)
					levels = nil
				}
			}
		}
	}
	levels = append(levels, s[min(start, len(s)):])
	return append(alts, levels)
}

// rewriteName is go test's rewriting of a name (and of a pattern level):
// white space becomes '_', non-printable runes their Go escape.
func rewriteName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r): // go test's list is Unicode's White_Space
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// NameLevels splits a go test benchmark name at '/', as go test does
// when it matches it.
func NameLevels(name string) []string { return strings.Split(name, "/") }
