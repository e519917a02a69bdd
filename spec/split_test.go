package spec

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// splitInputs are files on which decodeSplit must agree with the whole
// parse: the test specs, a large generated one, and texts made to trip
// the split (an item-like line inside a quoted scalar, an alias across
// the halves, a second document, a key after the list, comments, block
// scalars, a list at column 1, CRLF).
func splitInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{}
	for _, glob := range []string{"testdata/good/*.yaml", "testdata/bad/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in[f] = data
		}
	}
	var big strings.Builder
	big.WriteString("version: 1\nname: big\ndefaults:\n  forks: 1\nbenchmarks:\n")
	for i := range 300 {
		fmt.Fprintf(&big, "  - include: '^b%d$'\n    modes: [avgt]\n", i)
		if i%7 == 0 {
			big.WriteString("    # a comment\n    params: {size: [1, 2]}\n")
		}
		if i%11 == 0 {
			big.WriteString("    env:\n      A: |\n        text\n         more\n")
		}
	}
	in["big"] = []byte(big.String())
	head := "version: 1\nname: t\nbenchmarks:\n"
	in["quoted"] = []byte(head + "  - include: a\n  - include: \"x\n  - include: y\"\n  - include: b\n")
	in["single quoted"] = []byte(head + "  - include: a\n  - include: 'x\n  - y'\n  - include: b\n")
	in["flow"] = []byte(head + "  - include: a\n  - {include: x,\n  - y: 1}\n  - include: b\n")
	in["alias"] = []byte(head + "  - &e\n    include: a\n  - include: b\n  - *e\n  - include: c\n")
	in["anchor in second half"] = []byte(head + "  - include: a\n  - include: b\n  - &e {include: c}\n  - *e\n")
	in["second document"] = []byte(head + "  - include: a\n  - include: b\n---\n  - include: c\n")
	in["document end"] = []byte(head + "  - include: a\n  - include: b\n...\n")
	in["key after"] = []byte(head + "  - include: a\n  - include: b\ndefaults: {forks: 1}\n")
	in["column 1"] = []byte(head + "- include: a\n- include: b\n- include: c\n")
	in["column 1 key after"] = []byte(head + "- include: a\n- include: b\nname: again\n")
	in["crlf"] = []byte(strings.ReplaceAll(head+"  - include: a\n  - include: b\n  - include: c\n", "\n", "\r\n"))
	in["comments"] = []byte(head + "  - include: a\n# between\n  # indented\n  - include: b # here\n\n  - include: c\n")
	in["block scalar"] = []byte(head + "  - include: a\n    env:\n      A: >\n        x\n  - include: b\n  - include: c\n")
	in["dedented scalar"] = []byte(head + "  - include: a\n  - include: \"x\n y\"\n  - include: b\n")
	in["tab"] = []byte(head + "  - include: a\n\t- include: b\n  - include: c\n")
	in["merge"] = []byte(head + "  - include: a\n  - <<: {forks: 2}\n    include: b\n  - include: c\n")
	in["nested list"] = []byte(head + "  - include: a\n    modes:\n    - avgt\n    - thrpt\n  - include: b\n  - include: c\n")
	in["benchmarks twice"] = []byte(head + "  - include: a\n  - include: b\nbenchmarks:\n  - include: c\n")
	in["benchmarks flow"] = []byte("version: 1\nname: t\nbenchmarks: [{include: a}, {include: b}]\n")
	in["benchmarks comment"] = []byte("version: 1\nname: t\nbenchmarks: # the list\n  - include: a\n  - include: b\n")
	return in
}

// TestSplitDecodeAgrees checks decodeSplit against the whole parse: where
// it vouches for a file, the node trees are the same (kinds, styles,
// tags, values, anchors, aliases, lines and columns); and Parse gives
// the same Spec or the same errors either way.
func TestSplitDecodeAgrees(t *testing.T) {
	vouched := 0
	for name, data := range splitInputs(t) {
		if split, ok := decodeSplit(data); ok {
			vouched++
			whole, wholeOK := decodeOne(data)
			if !wholeOK {
				t.Errorf("%s: split parsed, whole did not", name)
				continue
			}
			if diff := cmp.Diff(describeTree(whole), describeTree(split)); diff != "" {
				t.Errorf("%s: split tree differs (-whole +split):\n%s", name, diff)
			}
		}
		defer func(n int) { splitMin = n }(splitMin)
		splitMin = math.MaxInt
		s1, err1 := Parse(name, data)
		splitMin = 0
		s2, err2 := Parse(name, data)
		if diff := cmp.Diff(errString(err1), errString(err2)); diff != "" {
			t.Errorf("%s: errors differ (-whole +split):\n%s", name, diff)
		}
		if diff := cmp.Diff(s1, s2); diff != "" {
			t.Errorf("%s: Spec differs (-whole +split):\n%s", name, diff)
		}
	}
	if vouched < 15 {
		t.Errorf("decodeSplit vouched for %d files; the test proves little", vouched)
	}
	// Vouching for the others is right where the trees agree (a split
	// before an item outside the quote, say); these it must refuse.
	for _, name := range []string{"second document", "document end", "key after", "column 1 key after", "tab", "benchmarks twice", "benchmarks flow"} {
		if _, ok := decodeSplit(splitInputs(t)[name]); ok {
			t.Errorf("%s: decodeSplit vouched for it; it must parse whole", name)
		}
	}
}

// describeTree lists every node of a tree with what the spec reads of it.
func describeTree(doc *yaml.Node) []string {
	var out []string
	paths := map[*yaml.Node]string{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		paths[n] = path
		alias := ""
		if n.Alias != nil {
			alias = " alias of " + paths[n.Alias]
		}
		out = append(out, fmt.Sprintf("%s: kind %d style %d tag %s value %q anchor %q at %d:%d, %d children%s",
			path, n.Kind, n.Style, n.Tag, n.Value, n.Anchor, n.Line, n.Column, len(n.Content), alias))
		for i, c := range n.Content {
			walk(c, path+"/"+strconv.Itoa(i))
		}
	}
	walk(doc, "")
	return out
}

func TestSplitPointLines(t *testing.T) {
	data := []byte("version: 1\nbenchmarks:\n  - a\n  - b\n  - c\n  - d\n")
	at, ind, ok := splitPoint(data)
	if !ok || ind != 2 || !bytes.HasPrefix(data[at:], []byte("  - c")) && !bytes.HasPrefix(data[at:], []byte("  - b")) {
		t.Errorf("splitPoint = %d %d %v: %q", at, ind, ok, data[at:])
	}
}

// FuzzSplitDecode checks, for any text, that where decodeSplit vouches
// for it the whole parse succeeds and gives the same tree. The seeds are
// splitInputs; fuzz with
//
//	go test -fuzz=FuzzSplitDecode -fuzztime=3m ./spec
func FuzzSplitDecode(f *testing.F) {
	for _, data := range splitInputs(&testing.T{}) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		split, ok := decodeSplit(data)
		if !ok {
			return
		}
		whole, wholeOK := decodeOne(data)
		if !wholeOK {
			t.Fatalf("split parsed %q, whole did not", data)
		}
		if diff := cmp.Diff(describeTree(whole), describeTree(split)); diff != "" {
			t.Fatalf("split tree differs (-whole +split):\n%s", diff)
		}
	})
}
