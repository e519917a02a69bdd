package spec

import (
	"bytes"
	"errors"
	"io"

	"gopkg.in/yaml.v3"
)

// Decoding the YAML is most of the cost of a large spec, and one
// goroutine's work. A large spec is nearly all its `benchmarks:` list,
// and a block list's items are parsed each on its own: the text before
// an item that starts a line at the list's indentation is a document of
// its own, and so is the text from there on (a list at that indentation).
// decodeSplit parses those two halves on two goroutines and joins them
// (the second half's lines shifted by the first's), when the text allows
// it without doubt; any doubt, and any error, and load parses the file
// as one, as before, which words every problem.

// splitMin is the size from which load tries decodeSplit (a variable for
// the tests, which split small files too).
var splitMin = 64 << 10

// decodeSplit returns the file's document node parsed in two halves at
// once, or ok false when it cannot vouch for the result: then the file
// must be parsed whole.
//
// The file must end with a top-level `benchmarks:` whose value is a block
// list starting on the next line: every line after that key is blank, a
// comment, an item at the list's indentation ("- …") or indented more.
// The halves split before the item line closest to the middle. Each half
// must parse without error into exactly one document: a split inside a
// quoted or flow scalar spanning lines leaves the first half unterminated,
// an alias to an anchor of the first half fails in the second, a `---` or
// `...` line is refused by the scan. The second half's root must be a
// list at the list's column, the first half's root a mapping whose last
// key is that `benchmarks`, with a list at the same place.
func decodeSplit(data []byte) (doc *yaml.Node, ok bool) {
	at, ind, ok := splitPoint(data)
	if !ok {
		return nil, false
	}
	type half struct {
		doc *yaml.Node
		ok  bool
	}
	second := make(chan half, 1)
	go func() {
		defer func() {
			if recover() != nil {
				second <- half{}
			}
		}()
		d, ok := decodeOne(data[at:])
		second <- half{d, ok}
	}()
	first, okFirst := decodeOne(data[:at])
	rest := <-second
	if !okFirst || !rest.ok {
		return nil, false
	}
	list := lastBenchmarks(first)
	tail := rest.doc.Content[0]
	if list == nil || tail.Kind != yaml.SequenceNode || tail.Style != 0 || tail.Tag != "!!seq" ||
		tail.Anchor != "" || tail.Column != ind+1 || list.Column != ind+1 || len(tail.Content) == 0 {
		return nil, false
	}
	shiftLines(tail, bytes.Count(data[:at], []byte{'\n'}))
	list.Content = append(list.Content, tail.Content...)
	return first, true
}

// decodeOne parses data into exactly one document with a root, or
// reports false.
func decodeOne(data []byte) (*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil || len(doc.Content) == 0 {
		return nil, false
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return &doc, true
}

// lastBenchmarks returns the block list that is the value of the last
// key of doc's root mapping, when that key is a plain `benchmarks`.
func lastBenchmarks(doc *yaml.Node) *yaml.Node {
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode || root.Tag != "!!map" || root.Anchor != "" || len(root.Content) < 2 {
		return nil
	}
	k, v := root.Content[len(root.Content)-2], root.Content[len(root.Content)-1]
	if k.Kind != yaml.ScalarNode || k.Value != "benchmarks" || k.Style != 0 || k.Tag != "!!str" ||
		v.Kind != yaml.SequenceNode || v.Style != 0 || v.Tag != "!!seq" || v.Anchor != "" {
		return nil
	}
	return v
}

// shiftLines adds n to the line of n and of every node below it.
func shiftLines(node *yaml.Node, n int) {
	stack := []*yaml.Node{node}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x.Line += n
		stack = append(stack, x.Content...)
	}
}

// splitPoint finds where to split data: the offset of the item line
// closest to its middle, and the list's indentation. ok is false unless
// the file ends with a top-level `benchmarks:` block list (see
// decodeSplit) of at least two items.
func splitPoint(data []byte) (at, ind int, ok bool) {
	// The key: "benchmarks:" at the start of a line, nothing after it
	// but blanks or a comment.
	key := -1
	for off := 0; off < len(data); {
		line, next := lineAt(data, off)
		if rest, found := bytes.CutPrefix(line, []byte("benchmarks:")); found && blankOrComment(rest) {
			key = next
			break
		}
		off = next
	}
	if key < 0 {
		return 0, 0, false
	}
	ind = -1
	var items []int
	for off := key; off < len(data); {
		line, next := lineAt(data, off)
		body := bytes.TrimLeft(line, " ")
		k := len(line) - len(body)
		switch {
		case blankOrComment(body):
			// A `---` or `...` line is neither: at column 1 it is below
			// the list, or at the list's indentation 0 and not an item.
		case ind < 0:
			if !isItem(body) {
				return 0, 0, false
			}
			ind = k
			items = append(items, off)
		case k < ind:
			return 0, 0, false
		case k == ind:
			if !isItem(body) {
				return 0, 0, false
			}
			items = append(items, off)
		}
		off = next
	}
	if len(items) < 2 {
		return 0, 0, false
	}
	mid := len(data) / 2
	best := items[1]
	for _, it := range items[1:] {
		if abs(it-mid) < abs(best-mid) {
			best = it
		}
	}
	return best, ind, true
}

// lineAt returns the line at off without its newline (and without a
// carriage return before it), and the offset of the next line.
func lineAt(data []byte, off int) (line []byte, next int) {
	end := bytes.IndexByte(data[off:], '\n')
	if end < 0 {
		line, next = data[off:], len(data)
	} else {
		line, next = data[off:off+end], off+end+1
	}
	return bytes.TrimSuffix(line, []byte{'\r'}), next
}

// blankOrComment reports whether s is spaces, then nothing or a comment.
func blankOrComment(s []byte) bool {
	s = bytes.TrimLeft(s, " ")
	return len(s) == 0 || s[0] == '#'
}

// isItem reports whether a line's text after its indentation starts a
// block list item: "-" alone or followed by a space.
func isItem(body []byte) bool {
	return len(body) > 0 && body[0] == '-' && (len(body) == 1 || body[1] == ' ')
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
