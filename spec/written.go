package spec

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// QuotedInclude is the entry's include as the spec wrote it, for the
// messages that quote it: '^work\.Summ$' stays so, where Go's %q of the
// decoded value ("^work\\.Summ$") shows a backslash nobody typed.
func (e *Entry) QuotedInclude() string { return written(e.IncludeQuote, e.Include) }

// QuotedExclude is the entry's exclude as the spec wrote it.
func (e *Entry) QuotedExclude() string { return written(e.ExcludeQuote, e.Exclude) }

// quoteOf is the quote a scalar was written in: '"', '\”, or 0 for a
// plain or block scalar.
func quoteOf(n *yaml.Node) byte {
	switch n = deref(n); {
	case n == nil:
		return 0
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return '"'
	case n.Style&yaml.SingleQuotedStyle != 0:
		return '\''
	}
	return 0
}

// written quotes value as a scalar written with quote: yaml's emitter
// writes a double-quoted scalar back with its escapes, anything else as
// a single-quoted scalar, which means what a plain one does. The
// emitter falls back to double quotes for what single quotes cannot
// hold (control characters). Done only for a message, never per entry:
// a large spec parses without it.
func written(quote byte, value string) string {
	style := yaml.SingleQuotedStyle
	if quote == '"' {
		style = yaml.DoubleQuotedStyle
	}
	b, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Style: style, Value: value})
	if err != nil {
		return strconv.Quote(value)
	}
	return strings.TrimSuffix(string(b), "\n")
}
