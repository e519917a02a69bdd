package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxFileSize is the largest spec file read, in bytes: a spec of 10 000
// entries is about 820 KiB.
//
// The YAML parser builds a node of about 500 bytes (with its tokens and
// events) for every value before any limit below can apply, and a value
// can take one or two bytes ("[1,1,…]", "{a,a,…}"): a 1 MiB file could
// cost half a million nodes. So the file's structure is counted first
// (maxIndicators): every YAML node but the root begins at, or is the key
// or value that follows, a ',' ':' '-' '?' '[' '{' or '*'; at most
// 2 × maxIndicators + 1 nodes, a bound on the memory and time a
// hostile file can cost (docs/security.md).
const MaxFileSize = 1 << 20

// maxIndicators bounds the characters ", : - ? [ { *" of a spec file,
// counted wherever they are (inside quoted strings too): a real spec
// has one or two per value, a spec of 10 000 entries about 76 000.
const maxIndicators = 120000

// indicatorsOver returns the offset at which data has more than limit of
// the characters that can begin a YAML node, or -1.
func indicatorsOver(data []byte, limit int) int {
	n := 0
	for i, c := range data {
		switch c {
		case ',', ':', '-', '?', '[', '{', '*':
			if n++; n > limit {
				return i
			}
		}
	}
	return -1
}

// Limits that keep a hostile or broken file from taking unbounded time or
// memory. No real spec comes near them.
const (
	maxValues    = 100000 // YAML nodes after expanding aliases and merges
	maxDepth     = 100    // nesting of mappings and lists
	maxErrors    = 100    // errors listed per file; the rest are counted
	maxRegexpLen = 4096   // bytes of an include or exclude pattern
)

// load parses data into d.value. It reports false, with errors recorded,
// when there is nothing sensible to validate.
func (d *document) load(data []byte) bool {
	if len(data) > MaxFileSize {
		d.errorAt(1, 1, "spec file too large (%d bytes; at most %d)", len(data), MaxFileSize)
		return false
	}
	if off := indicatorsOver(data, maxIndicators); off >= 0 {
		line, col := lineCol(data, off)
		d.errorAt(line, col, "spec too large: more than %d YAML values by its structure (the characters , : - ? [ { * that begin them)", maxIndicators)
		return false
	}
	if !utf8.Valid(data) {
		off := invalidUTF8(data)
		line, col := lineCol(data, off)
		d.errorAt(line, col, "invalid UTF-8 (byte 0x%02X); spec files must be UTF-8 text", data[off])
		return false
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	doc := new(yaml.Node)
	if err := dec.Decode(doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.errorAt(1, 1, "empty spec: expected a mapping with version, name and benchmarks")
		} else {
			d.syntaxError(data, err)
		}
		return false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		d.syntaxError(data, err)
	default:
		d.errorNode(&next, "a second YAML document; a spec file holds exactly one (remove this ---)")
	}
	if len(doc.Content) == 0 {
		d.errorNode(doc, "empty spec: expected a mapping with version, name and benchmarks")
		return false
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		d.errorNode(root, "empty spec: expected a mapping with version, name and benchmarks")
		return false
	}
	d.duplicateKeys(root)
	d.root = root
	v, ok := d.convert(root, nil, 0)
	d.value = v
	return ok
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the messages of yaml.v3's parser, as opposed to its
// scanner; their line numbers are one short.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// syntaxError records a yaml.v3 parse error. yaml.v3 gives at most a line
// (sometimes none, sometimes the line where the enclosing construct
// started), so for the common cases the position is found in the text.
func (d *document) syntaxError(data []byte, err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			line++ // yaml.v3 prints parser (not scanner) marks 0-based
		}
	}
	if strings.Contains(msg, "tab") || strings.Contains(msg, "cannot start any token") {
		if l, c, ok := indentTab(data, line); ok {
			d.errorAt(l, c, "tab character in indentation; YAML indents with spaces only")
			return
		}
	}
	col := 1
	switch {
	case strings.HasPrefix(msg, "control characters"):
		if off := controlChar(data); off >= 0 {
			line, col = lineCol(data, off)
			r, _ := utf8.DecodeRune(data[off:])
			msg = fmt.Sprintf("control character %U is not allowed", r)
		}
	case strings.HasPrefix(msg, "unknown anchor"):
		// "unknown anchor 'x' referenced": point at the first *x.
		if name, _, ok := strings.Cut(strings.TrimPrefix(msg, "unknown anchor '"), "'"); ok {
			if off := bytes.Index(data, []byte("*"+name)); off >= 0 {
				line, col = lineCol(data, off)
			}
		}
	}
	hint := ""
	if col == 1 && line > 0 {
		line, col, hint, _ = syntaxPos(data, line, msg)
	}
	d.errorAt(max(line, 1), col, "invalid YAML: %s%s", msg, hint)
}

// duplicateKeys reports every key that repeats an earlier key of the same
// mapping, at the repeated key. It walks the file's own nodes without
// following aliases, so each mapping is checked once however often it is
// referenced.
func (d *document) duplicateKeys(root *yaml.Node) {
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, n.Content...)
		if n.Kind != yaml.MappingNode {
			continue
		}
		if len(n.Content) <= 2*smallMapping {
			d.duplicateKeysSmall(n)
			continue
		}
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := scalarKey(n.Content[i])
			if k == nil {
				continue
			}
			if first, dup := seen[k.Value]; dup {
				d.errorNode(n.Content[i], "duplicate key %q (first defined at line %d, column %d)", k.Value, first.Line, first.Column)
				continue
			}
			seen[k.Value] = n.Content[i]
		}
	}
}

// smallMapping is the number of keys up to which duplicateKeys compares
// every key with the earlier ones rather than building a map: a spec's
// mappings are small, and a map for each of its ~30 000 would cost more
// than the comparisons.
const smallMapping = 16

// duplicateKeysSmall is duplicateKeys for one mapping of at most
// smallMapping keys: the same errors, without a map.
func (d *document) duplicateKeysSmall(n *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := scalarKey(n.Content[i])
		if k == nil {
			continue
		}
		for j := 0; j < i; j += 2 {
			if f := scalarKey(n.Content[j]); f != nil && f.Value == k.Value {
				first := n.Content[j]
				d.errorNode(n.Content[i], "duplicate key %q (first defined at line %d, column %d)", k.Value, first.Line, first.Column)
				break
			}
		}
	}
}

// scalarKey is the scalar a mapping key is (through an alias), or nil for
// a merge key (<<) or a key that is not a scalar.
func scalarKey(kn *yaml.Node) *yaml.Node {
	k := deref(kn)
	if k == nil || k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
		return nil
	}
	return k
}

// path is a JSON pointer built only when needed (an error): convert
// visits every value of the file, most of which never need theirs. nil is
// the root.
type path struct {
	parent *path
	key    string // a mapping member's key, when index is -1
	index  int    // a list item's index
}

func (p *path) String() string {
	if p == nil {
		return ""
	}
	tok := p.key
	if p.index >= 0 {
		tok = strconv.Itoa(p.index)
	} else {
		tok = escapeToken(tok)
	}
	return p.parent.String() + "/" + tok
}

// convert turns n into a plain value stored under ptr. It reports false
// when a limit was exceeded; the value is then incomplete.
func (d *document) convert(n *yaml.Node, ptr *path, depth int) (any, bool) {
	d.count++
	if d.count > maxValues {
		at := n
		if d.aliasSite != nil {
			at = d.aliasSite
		}
		d.errorNode(at, "spec too large: more than %d values after expanding aliases (an alias bomb?)", maxValues)
		return nil, false
	}
	if depth > maxDepth {
		d.errorNode(n, "nesting deeper than %d levels", maxDepth)
		return nil, false
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			d.errorNode(n, "alias *%s refers to no anchor", n.Value)
			d.bad[ptr.String()] = true
			return nil, true
		}
		if d.aliasSite == nil {
			d.aliasSite = n
			defer func() { d.aliasSite = nil }()
		}
		return d.convert(n.Alias, ptr, depth)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, true
		}
		return d.convert(n.Content[0], ptr, depth)
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, ok := d.convertChild(c, ptr, "", i, depth+1)
			if !ok {
				return nil, false
			}
			list[i] = v
		}
		return list, true
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		return m, d.members(m, n, ptr, depth)
	default:
		return d.scalar(n, ptr), true
	}
}

// convertChild is convert for the member key (index -1) or the item
// index of the value at parent. A scalar, most values, is converted
// with its path on the stack: only containers keep theirs, for their
// own members.
func (d *document) convertChild(n *yaml.Node, parent *path, key string, index int, depth int) (any, bool) {
	if n.Kind == yaml.ScalarNode && d.count < maxValues && depth <= maxDepth {
		d.count++
		p := path{parent: parent, key: key, index: index}
		return d.scalar(n, &p), true
	}
	return d.convert(n, &path{parent: parent, key: key, index: index}, depth)
}

// members adds the pairs of mapping n to m. Keys written in n come first;
// then the mappings merged with `<<` fill in the keys still missing, the
// earlier merged mapping winning, as YAML's merge key specifies.
func (d *document) members(m map[string]any, n *yaml.Node, ptr *path, depth int) bool {
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k := deref(kn)
		if k != nil && k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, vn)
			continue
		}
		if k == nil || k.Kind != yaml.ScalarNode {
			d.errorNode(kn, "mapping keys must be strings")
			continue
		}
		if _, dup := m[k.Value]; dup {
			continue // reported by duplicateKeys, or overridden by a merge
		}
		v, ok := d.convertChild(vn, ptr, k.Value, -1, depth+1)
		if !ok {
			return false
		}
		m[k.Value] = v
	}
	for _, vn := range merges {
		srcs := []*yaml.Node{deref(vn)}
		if srcs[0] != nil && srcs[0].Kind == yaml.SequenceNode {
			srcs = srcs[0].Content
		}
		for _, src := range srcs {
			d.count++
			if d.count > maxValues || depth+1 > maxDepth {
				d.errorNode(vn, "merge (<<) nested too deeply or too large (an alias bomb?)")
				return false
			}
			src = deref(src)
			if src == nil || src.Kind != yaml.MappingNode {
				d.errorNode(vn, "merge (<<) needs a mapping or a list of mappings")
				continue
			}
			if !d.members(m, src, ptr, depth+1) {
				return false
			}
		}
	}
	return true
}

// scalar converts a scalar node using its resolved YAML 1.2 tag: a quoted
// "3" is a string, yes/no/on/off are strings, 0x10 is the integer 16.
func (d *document) scalar(n *yaml.Node, ptr *path) any {
	tag := n.ShortTag()
	switch tag {
	case "!!null":
		return nil
	case "!!bool":
		switch n.Value { // the usual spellings, without a decoder
		case "true":
			return true
		case "false":
			return false
		}
		var b bool
		if err := n.Decode(&b); err == nil {
			return b
		}
	case "!!int":
		if v, ok := plainDecimal(n.Value); ok {
			return v
		}
		if why := yaml11Int(n.Value); why != "" {
			d.errorNode(n, "%s: %s %s; write a plain decimal number such as %s (or 0o / 0x for octal / hexadecimal, as YAML 1.2 does)", d.display(ptr.String()), n.Value, why, plainForm(n.Value))
			d.bad[ptr.String()] = true
			return nil
		}
		var v any
		if err := n.Decode(&v); err == nil {
			switch v := v.(type) {
			case int:
				return int64(v)
			case int64:
				return v
			case uint64:
				if v <= math.MaxInt64 {
					return int64(v)
				}
			case float64:
				return v
			}
		}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err == nil {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				d.errorNode(n, "%s: %s is not a finite number", d.display(ptr.String()), n.Value)
				d.bad[ptr.String()] = true
				return nil
			}
			return f
		}
	case "!!str", "!!timestamp", "!!binary":
		return n.Value
	default:
		d.errorNode(n, "%s: unsupported YAML tag %s", d.display(ptr.String()), n.Tag)
		d.bad[ptr.String()] = true
		return nil
	}
	d.errorNode(n, "%s: %q is not a valid %s", d.display(ptr.String()), n.Value, tag)
	d.bad[ptr.String()] = true
	return nil
}

// plainDecimal parses the usual integer of a spec, an optional minus and
// decimal digits without a leading zero, as yaml.v3 would (it reads
// "010" as octal, "1_000" as 1000: those take the decoder's way).
func plainDecimal(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// yaml11Int says why s, which yaml.v3 resolves as an integer, is a
// YAML 1.1 form that YAML 1.2 reads otherwise or not at all, or "": a
// leading zero (010 is 8 to yaml.v3 and YAML 1.1, 10 to a YAML 1.2
// reader, and the reader of a spec means 10), digit separators (1_000)
// and binary (0b101). yes/no/on/off are strings already (YAML 1.2).
func yaml11Int(s string) string {
	digits := strings.TrimLeft(s, "+-")
	switch {
	case len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9':
		return "has a leading zero, which YAML 1.1 reads as octal (010 is 8) and YAML 1.2 as decimal"
	case strings.HasPrefix(digits, "0b"):
		return "is a YAML 1.1 binary number, which YAML 1.2 does not have"
	case strings.Contains(digits, "_"):
		return "has a digit separator (_), which YAML 1.2 does not have"
	}
	return ""
}

// plainForm is the decimal a reader probably meant by s (leading zeros
// and separators dropped), for the message.
func plainForm(s string) string {
	neg := strings.HasPrefix(s, "-")
	digits := strings.ReplaceAll(strings.TrimLeft(s, "+-"), "_", "")
	if b, ok := strings.CutPrefix(digits, "0b"); ok {
		if v, err := strconv.ParseUint(b, 2, 64); err == nil {
			digits = strconv.FormatUint(v, 10)
		}
	}
	if digits = strings.TrimLeft(digits, "0"); digits == "" {
		digits = "0"
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// deref follows an alias to its anchored node.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode {
		return n.Alias
	}
	return n
}

// lineCol returns the 1-based line and column (in characters) of a byte
// offset.
func lineCol(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return bytes.Count(data[:off], []byte{'\n'}) + 1, utf8.RuneCount(data[start:off]) + 1
}

// invalidUTF8 returns the offset of the first byte that is not UTF-8.
func invalidUTF8(data []byte) int {
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			return off
		}
		off += size
	}
	return len(data)
}

// controlChar returns the offset of the first character YAML does not
// allow in a file, or -1.
func controlChar(data []byte) int {
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7F || (r >= 0x80 && r <= 0x9F && r != 0x85) || r == 0xFFFE || r == 0xFFFF {
			return off
		}
		off += size
	}
	return -1
}

// indentTab finds a tab in the leading whitespace of a line, preferring
// the lines from near-1 on (yaml.v3 sometimes names the line before).
func indentTab(data []byte, near int) (line, col int, ok bool) {
	first := 0
	for i, l := range bytes.Split(data, []byte{'\n'}) {
		indent := len(l) - len(bytes.TrimLeft(l, " \t-"))
		t := bytes.IndexByte(l[:indent], '\t')
		if t < 0 {
			continue
		}
		if i+1 >= near-1 {
			return i + 1, t + 1, true
		}
		if first == 0 {
			first, col = i+1, t+1
		}
	}
	return first, col, first > 0
}
