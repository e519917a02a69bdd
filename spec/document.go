package spec

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// document is a spec file's YAML turned into plain values (map[string]any,
// []any, string, int64, float64, bool, nil), the form JSON Schema
// validation and the resolver work on, together with the YAML node behind
// every value so that each error can name its line and column.
//
// Values are addressed by JSON pointers ("/benchmarks/0/forks"), which is
// also how schema errors name them.
type document struct {
	path  string
	value any
	root  *yaml.Node // the document's top node; positions are looked up from it (node)
	// bad holds pointers whose value could not be represented and was
	// replaced; schema errors at or below them would be noise.
	bad    map[string]bool
	errPtr map[string]bool // pointers that already have an error
	errs   ErrorList
	// unplaced counts the errors recorded at a position alone, not at a
	// pointer (syntax, duplicate keys): a spec with one is not pruned
	// (partial).
	unplaced int
	// dropped marks the entries prune leaves out of a partial spec.
	dropped map[int]bool
	// omitted counts the errors dropped to keep errs within maxErrors
	// (a file of a million duplicate keys would otherwise print them
	// all).
	omitted int
	count   int // values converted so far, for maxValues
	// aliasSite is the outermost alias being expanded, where an alias
	// bomb is reported.
	aliasSite *yaml.Node
	// regexps holds the patterns checkRegexp parsed, each with its
	// syntax error ("" for none).
	regexps map[string]string
}

func newDocument(path string) *document {
	return &document{
		path:   path,
		bad:    map[string]bool{},
		errPtr: map[string]bool{},
	}
}

// errorAt records an error at a line and column. Only the first
// maxErrors by position are kept; whenever twice as many have piled up,
// the later ones are dropped and counted.
func (d *document) errorAt(line, col int, format string, args ...any) {
	d.unplaced++
	d.errs = append(d.errs, &Error{Pos: Pos{File: d.path, Line: line, Col: col}, Msg: fmt.Sprintf(format, args...)})
	if len(d.errs) >= 2*maxErrors {
		d.trimErrors()
	}
}

// trimErrors sorts the errors and keeps the first maxErrors.
func (d *document) trimErrors() {
	d.errs = d.errs.sort()
	if len(d.errs) > maxErrors {
		d.omitted += len(d.errs) - maxErrors
		d.errs = d.errs[:maxErrors:maxErrors]
	}
}

// errorList returns the errors found, sorted, with a last element that
// counts the omitted ones, if any.
func (d *document) errorList() ErrorList {
	d.trimErrors()
	if d.omitted > 0 {
		d.errs = append(d.errs, &Error{Pos: Pos{File: d.path}, Omitted: d.omitted})
	}
	return d.errs
}

// errorNode records an error at a node.
func (d *document) errorNode(n *yaml.Node, format string, args ...any) {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, max(n.Column, 1)
	}
	d.errorAt(line, col, format, args...)
}

// errorPtr records an error at the value a pointer names.
func (d *document) errorPtr(ptr string, format string, args ...any) {
	d.errPtr[ptr] = true
	p := d.pos(ptr)
	d.errorAt(p.Line, p.Col, format, args...)
	d.unplaced--
}

// errorKey records an error at the key of the mapping member ptr names.
func (d *document) errorKey(ptr string, format string, args ...any) {
	if _, k := d.node(ptr); k != nil {
		d.errPtr[ptr] = true
		d.errorNode(k, format, args...)
		d.unplaced--
		return
	}
	d.errorPtr(ptr, format, args...)
}

// pos returns the position of the value ptr names, or of its closest
// ancestor that has one.
func (d *document) pos(ptr string) Pos {
	for {
		if n, _ := d.node(ptr); n != nil && n.Line > 0 {
			return Pos{File: d.path, Line: n.Line, Col: max(n.Column, 1)}
		}
		if ptr == "" {
			return Pos{File: d.path, Line: 1, Col: 1}
		}
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
	}
}

// node returns the node of the value ptr names and, for a member of a
// mapping, its key node, as convert reads the file: through aliases
// (the value's node is the alias, at its place of use), with a mapping's
// own keys before those it merges with <<, the first of equal keys
// winning. It returns nils where the file has no such value.
func (d *document) node(ptr string) (val, key *yaml.Node) {
	return nodeAt(d.root, ptr)
}

// nodeAt is node for a pointer relative to the value n.
func nodeAt(n *yaml.Node, ptr string) (val, key *yaml.Node) {
	if n == nil || ptr == "" {
		return n, nil
	}
	rest := ptr[1:]
	for {
		tok, more, found := strings.Cut(rest, "/")
		rest = more
		n = deref(n)
		if n == nil {
			return nil, nil
		}
		switch n.Kind {
		case yaml.MappingNode:
			key, n = memberNode(n, unescapeToken(tok), 0)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) || !isIndex(tok) {
				return nil, nil
			}
			key, n = nil, n.Content[i]
		default:
			return nil, nil
		}
		if n == nil {
			return nil, nil
		}
		if !found {
			return n, key
		}
	}
}

// isKey reports whether ptr names a member of a mapping (rather than an
// item of a list).
func (d *document) isKey(ptr string) bool {
	_, k := d.node(ptr)
	return k != nil
}

// memberNode finds the member name of mapping m: its own keys first, then
// those of the mappings it merges with <<, in order, as members converts
// them.
func memberNode(m *yaml.Node, name string, depth int) (key, val *yaml.Node) {
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := deref(m.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, m.Content[i+1])
			continue
		}
		if k.Value == name {
			return m.Content[i], m.Content[i+1]
		}
	}
	if depth >= maxDepth {
		return nil, nil
	}
	for _, vn := range merges {
		srcs := []*yaml.Node{deref(vn)}
		if srcs[0] != nil && srcs[0].Kind == yaml.SequenceNode {
			srcs = srcs[0].Content
		}
		for _, src := range srcs {
			if src = deref(src); src != nil && src.Kind == yaml.MappingNode {
				if k, v := memberNode(src, name, depth+1); v != nil {
					return k, v
				}
			}
		}
	}
	return nil, nil
}

// display names the value at ptr the way a user would write it:
// benchmarks[0].warmup.time. The root is "spec".
func (d *document) display(ptr string) string {
	if ptr == "" {
		return "spec"
	}
	var b strings.Builder
	cur := ""
	for _, tok := range strings.Split(ptr[1:], "/") {
		cur += "/" + tok
		name := unescapeToken(tok)
		switch {
		case !d.isKey(cur) && isIndex(name):
			b.WriteString("[" + name + "]")
		case plainKey.MatchString(name):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(name)
		default:
			fmt.Fprintf(&b, "[%q]", name)
		}
	}
	return b.String()
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != "" && s[0] != '-' && s[0] != '+'
}

// value returns the plain value at ptr, and whether there is one.
func (d *document) valueAt(ptr string) (any, bool) {
	v := d.value
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[unescapeToken(tok)]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

var (
	tokenEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	tokenUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// escapeToken escapes one JSON pointer token (RFC 6901).
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s // the usual key: no copy
	}
	return tokenEscaper.Replace(s)
}

func unescapeToken(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return tokenUnescaper.Replace(s)
}
