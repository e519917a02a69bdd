package spec

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/schemas"
)

// specSchema is schemas.Spec compiled once by gojsonschema, plus what the
// error messages need to know about it. The schema is the single source
// of the valid keys, types, enums and ranges; the Go code only words its
// complaints.
type specSchema struct {
	compiled *gojsonschema.Schema
	root     map[string]any
	// alternatives maps the schema path of every oneOf (such as
	// "#/definitions/threads") to its branches, each compiled on its own,
	// so that a value can be checked against the branch it resembles.
	alternatives map[string][]branch
}

// branch is one alternative of a oneOf.
type branch struct {
	title    string   // the branch's "title", worded to follow "expected"
	types    []string // JSON types the branch accepts
	compiled *gojsonschema.Schema
}

// loadSchema returns the compiled spec schema.
var loadSchema = sync.OnceValues(func() (*specSchema, error) { return compileSchema(schemas.Spec) })

func compileSchema(data []byte) (*specSchema, error) {
	s := &specSchema{alternatives: map[string][]branch{}}
	if err := json.Unmarshal(data, &s.root); err != nil {
		return nil, fmt.Errorf("spec schema: %w", err)
	}
	unionTypes(s.root)
	var err error
	if s.compiled, err = gojsonschema.NewSchema(gojsonschema.NewGoLoader(s.root)); err != nil {
		return nil, fmt.Errorf("spec schema: %w", err)
	}
	if err := s.collectAlternatives(s.root, "#"); err != nil {
		return nil, fmt.Errorf("spec schema: %w", err)
	}
	return s, nil
}

// violation is one schema error, with the JSON pointer of the value at
// fault in the document ("/benchmarks/0/modes"); for an unknown or a
// missing key, of the mapping that holds (or lacks) it.
type violation struct {
	gojsonschema.ResultError
	ptr string
}

// check validates v against schema; each violation's pointer is relative
// to v, prefixed with at.
func check(schema *gojsonschema.Schema, v any, at string) ([]violation, error) {
	res, err := schema.Validate(gojsonschema.NewGoLoader(v))
	if err != nil {
		return nil, err
	}
	out := make([]violation, 0, len(res.Errors()))
	for _, e := range res.Errors() {
		out = append(out, violation{e, at + pointer(e.Context(), v)})
	}
	return out, nil
}

// pointer converts gojsonschema's context of an error ("(root)",
// "benchmarks", "0", …) to a JSON pointer into v ("/benchmarks/0").
func pointer(c *gojsonschema.JsonContext, v any) string {
	toks := strings.Split(c.String("\x00"), "\x00")[1:] // without (root)
	if p, ok := resolve(toks, v); ok {
		return p
	}
	var b strings.Builder
	for _, tok := range toks {
		b.WriteString("/" + escapeToken(tok))
	}
	return b.String()
}

// resolve returns the pointer to the value of v that toks name. The
// tokens were joined with NUL, which a key may hold too: such a key spans
// several tokens, and the reading that reaches a value is the one.
func resolve(toks []string, v any) (string, bool) {
	if len(toks) == 0 {
		return "", true
	}
	switch x := v.(type) {
	case map[string]any:
		for j := 1; j <= len(toks); j++ {
			k := strings.Join(toks[:j], "\x00")
			if sub, ok := x[k]; ok {
				if rest, ok := resolve(toks[j:], sub); ok {
					return "/" + escapeToken(k) + rest, true
				}
			}
		}
	case []any:
		if i, err := strconv.Atoi(toks[0]); err == nil && isIndex(toks[0]) && i < len(x) {
			if rest, ok := resolve(toks[1:], x[i]); ok {
				return "/" + toks[0] + rest, true
			}
		}
	}
	return "", false
}

// unionTypes rewrites every anyOf whose branches each allow one plain
// type ({"anyOf": [{"type": "string"}, {"type": "number"}]}) below node
// as the union type it means ({"type": ["string", "number"]}). The file
// spells unions that way because strict clients such as ajv refuse a
// "type" list; a validator would then report a mismatch branch by
// branch, and the errors are worded from one "expected string or number".
func unionTypes(node any) {
	switch n := node.(type) {
	case map[string]any:
		if alts, ok := n["anyOf"].([]any); ok && n["type"] == nil {
			var types []any
			for _, a := range alts {
				m, _ := a.(map[string]any)
				if t, ok := m["type"].(string); ok && len(m) == 1 {
					types = append(types, t)
				}
			}
			if len(types) == len(alts) {
				delete(n, "anyOf")
				n["type"] = types
			}
		}
		for _, v := range n {
			unionTypes(v)
		}
	case []any:
		for _, v := range n {
			unionTypes(v)
		}
	}
}

// collectAlternatives compiles the branches of every oneOf below node.
// Branches must be self-contained (no $ref), which the schema test checks
// by compiling them here.
func (s *specSchema) collectAlternatives(node any, path string) error {
	switch n := node.(type) {
	case map[string]any:
		if alts, ok := n["oneOf"].([]any); ok {
			for i, a := range alts {
				m, _ := a.(map[string]any)
				c, err := gojsonschema.NewSchema(gojsonschema.NewGoLoader(m))
				if err != nil {
					return fmt.Errorf("%s/oneOf/%d: %w", path, i, err)
				}
				title, _ := m["title"].(string)
				s.alternatives[path] = append(s.alternatives[path], branch{title: title, types: schemaTypes(m), compiled: c})
			}
		}
		for _, k := range sortedKeys(n) {
			if err := s.collectAlternatives(n[k], path+"/"+escapeToken(k)); err != nil {
				return err
			}
		}
	case []any:
		for i, c := range n {
			if err := s.collectAlternatives(c, path+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// lookup returns the subschema that governs the value at a JSON pointer
// of the document, and its path in the schema ("#/definitions/duration"),
// following $ref. ok is false if the schema does not describe the pointer.
func (s *specSchema) lookup(ptr string) (sub map[string]any, path string, ok bool) {
	sub, path = s.deref(s.root, "#")
	if ptr == "" {
		return sub, path, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		if alts, isAlt := sub["oneOf"].([]any); isAlt {
			// Only lists reach inside an alternative: take the list branch.
			found := false
			for i, a := range alts {
				if m, _ := a.(map[string]any); m["items"] != nil {
					sub, path, found = m, path+"/oneOf/"+strconv.Itoa(i), true
					break
				}
			}
			if !found {
				return nil, "", false
			}
		}
		if props, _ := sub["properties"].(map[string]any); props[tok] != nil {
			sub, path = s.deref(props[tok], path+"/properties/"+escapeToken(tok))
			continue
		}
		if items, _ := sub["items"].(map[string]any); items != nil && isIndex(tok) {
			sub, path = s.deref(items, path+"/items")
			continue
		}
		if ap, _ := sub["additionalProperties"].(map[string]any); ap != nil {
			sub, path = s.deref(ap, path+"/additionalProperties")
			continue
		}
		return nil, "", false
	}
	return sub, path, true
}

// deref follows "#/definitions/..." references.
func (s *specSchema) deref(node any, path string) (map[string]any, string) {
	m, _ := node.(map[string]any)
	for range 10 {
		ref, _ := m["$ref"].(string)
		if !strings.HasPrefix(ref, "#/") {
			break
		}
		path = ref
		cur := any(s.root)
		for _, tok := range strings.Split(ref[2:], "/") {
			next, _ := cur.(map[string]any)
			cur = next[unescapeToken(tok)]
		}
		m, _ = cur.(map[string]any)
	}
	return m, path
}

// keys returns the property names the subschema at ptr allows, sorted.
func (s *specSchema) keys(ptr string) []string {
	sub, _, _ := s.lookup(ptr)
	props, _ := sub["properties"].(map[string]any)
	return sortedKeys(props)
}

// schemaTypes returns the "type" of a subschema as a list.
func schemaTypes(m map[string]any) []string {
	switch t := m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
