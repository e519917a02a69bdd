// Package jsonschema validates decoded values against the part of JSON
// Schema draft-07 that benchspec's spec schema uses: type, $ref to
// "#/definitions/...", properties, additionalProperties, required,
// items, minItems, uniqueItems, minLength, pattern, enum, const,
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, oneOf and anyOf,
// with the annotations ($schema, $id, title, description, default,
// examples, $comment, definitions) ignored. Compile refuses any other
// keyword, so that a schema change cannot be silently ignored.
//
// It exists so that a suite binary, which every fork execs, does not link
// a general validator: gojsonschema pulls in net/http, crypto/tls and the
// cgo resolver (a dynamically linked binary), which cost every fork
// hundreds of page faults and milliseconds before main. Values are what
// the spec loader produces: nil, bool, string, int64, float64, []any and
// map[string]any.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is what an Error is about.
type Kind int

const (
	Type               Kind = iota // the value's type is not allowed (Expected)
	AdditionalProperty             // a key not in properties (Property)
	Required                       // a missing required key (Property)
	Enum                           // not one of the enum values (Allowed)
	Const                          // not the const value (Allowed)
	Minimum                        // below minimum or at/below exclusiveMinimum (Bound)
	Maximum                        // above maximum or at/above exclusiveMaximum (Bound)
	MinItems                       // a list shorter than minItems (Bound)
	MinLength                      // a string shorter than minLength (Bound)
	Unique                         // item Index repeats an earlier one
	Pattern                        // a string that does not match Pattern
	OneOf                          // matches no branch of a oneOf, or several
	AnyOf                          // matches no branch of an anyOf
)

// Error is one violation.
type Error struct {
	Kind Kind
	// Ptr is the JSON pointer ("/benchmarks/0/modes") of the value at
	// fault, relative to the value validated; for AdditionalProperty and
	// Required, of the mapping that holds (or lacks) the key.
	Ptr      string
	Property string   // AdditionalProperty, Required
	Expected []string // Type: the allowed types, in the schema's order
	Allowed  string   // Enum, Const: the JSON of the allowed values, ", "-separated
	Bound    float64  // Minimum, Maximum, MinItems, MinLength
	// Exclusive is set for a bound from exclusiveMinimum or
	// exclusiveMaximum.
	Exclusive bool
	Index     int    // Unique: the index of the repeated item
	Pattern   string // Pattern: the regular expression
}

// Description words the error on its own.
func (e Error) Description() string {
	switch e.Kind {
	case Type:
		return "expected " + strings.Join(e.Expected, " or ")
	case AdditionalProperty:
		return fmt.Sprintf("key %q is not allowed", e.Property)
	case Required:
		return fmt.Sprintf("key %q is required", e.Property)
	case Enum:
		return "must be one of " + e.Allowed
	case Const:
		return "must be " + e.Allowed
	case Minimum:
		if e.Exclusive {
			return "must be greater than " + formatBound(e.Bound)
		}
		return "must be at least " + formatBound(e.Bound)
	case Maximum:
		if e.Exclusive {
			return "must be less than " + formatBound(e.Bound)
		}
		return "must be at most " + formatBound(e.Bound)
	case MinItems:
		return "must have at least " + formatBound(e.Bound) + " items"
	case MinLength:
		return "must be at least " + formatBound(e.Bound) + " characters long"
	case Unique:
		return fmt.Sprintf("item %d repeats an earlier one", e.Index)
	case Pattern:
		return "does not match " + e.Pattern
	case OneOf:
		return "must match exactly one alternative"
	case AnyOf:
		return "must match at least one alternative"
	}
	return "invalid"
}

func formatBound(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Schema is a compiled schema.
type Schema struct{ root *node }

type node struct {
	ref        string
	target     *node // ref resolved
	types      []string
	props      map[string]*node
	additional *node // additionalProperties as a schema
	noMore     bool  // additionalProperties: false
	required   []string
	items      *node
	enum       []any
	allowed    string // enum or const, as JSON
	hasConst   bool
	constant   any
	minimum    *float64
	maximum    *float64
	exMinimum  *float64
	exMaximum  *float64
	minItems   int
	minLength  int
	unique     bool
	pattern    *regexp.Regexp
	oneOf      []*node
	anyOf      []*node
}

// annotation reports whether keyword k does not constrain a value.
func annotation(k string) bool {
	switch k {
	case "$schema", "$id", "$comment", "title", "description", "default", "examples", "definitions":
		return true
	}
	return false
}

type compiler struct {
	root any
	refs map[string]*node
}

// Compile compiles root (a decoded JSON schema); "$ref"s resolve in it.
func Compile(root map[string]any) (*Schema, error) {
	c := &compiler{root: root, refs: map[string]*node{}}
	n, err := c.compile(root, "#")
	if err != nil {
		return nil, err
	}
	return &Schema{root: n}, nil
}

func (c *compiler) compile(v any, path string) (*node, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema must be an object, got %T", path, v)
	}
	n := &node{minItems: -1, minLength: -1}
	if ref, ok := m["$ref"]; ok {
		s, ok := ref.(string)
		if !ok || !strings.HasPrefix(s, "#/") {
			return nil, fmt.Errorf("%s/$ref: only local references (#/...) are supported, got %v", path, ref)
		}
		n.ref = s
		t, err := c.resolve(s)
		if err != nil {
			return nil, fmt.Errorf("%s/$ref: %w", path, err)
		}
		n.target = t
		return n, nil // draft-07: $ref's siblings are ignored
	}
	number := func(k string) (*float64, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		f, ok := x.(float64)
		if !ok {
			return nil, fmt.Errorf("%s/%s: must be a number, got %v", path, k, x)
		}
		return &f, nil
	}
	count := func(k string) (int, error) {
		p, err := number(k)
		if err != nil || p == nil {
			return -1, err
		}
		if *p < 0 || *p != math.Trunc(*p) {
			return -1, fmt.Errorf("%s/%s: must be a non-negative integer, got %v", path, k, *p)
		}
		return int(*p), nil
	}
	list := func(k string) ([]*node, error) {
		alts, ok := m[k].([]any)
		if !ok || len(alts) == 0 {
			return nil, fmt.Errorf("%s/%s: must be a non-empty array", path, k)
		}
		var out []*node
		for i, a := range alts {
			sub, err := c.compile(a, path+"/"+k+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out = append(out, sub)
		}
		return out, nil
	}
	var err error
	for _, k := range sortedKeys(m) {
		x := m[k]
		switch k {
		case "type":
			switch t := x.(type) {
			case string:
				n.types = []string{t}
			case []any:
				for _, e := range t {
					s, ok := e.(string)
					if !ok {
						return nil, fmt.Errorf("%s/type: must list type names, got %v", path, e)
					}
					n.types = append(n.types, s)
				}
			default:
				return nil, fmt.Errorf("%s/type: must be a string or a list, got %v", path, x)
			}
			for _, t := range n.types {
				if !slices.Contains([]string{"null", "boolean", "string", "number", "integer", "array", "object"}, t) {
					return nil, fmt.Errorf("%s/type: unknown type %q", path, t)
				}
			}
		case "properties":
			props, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s/properties: must be an object", path)
			}
			n.props = map[string]*node{}
			for _, p := range sortedKeys(props) {
				if n.props[p], err = c.compile(props[p], path+"/properties/"+p); err != nil {
					return nil, err
				}
			}
		case "additionalProperties":
			if b, ok := x.(bool); ok {
				n.noMore = !b
			} else if n.additional, err = c.compile(x, path+"/additionalProperties"); err != nil {
				return nil, err
			}
		case "required":
			req, ok := x.([]any)
			if !ok {
				return nil, fmt.Errorf("%s/required: must be a list", path)
			}
			for _, r := range req {
				s, ok := r.(string)
				if !ok {
					return nil, fmt.Errorf("%s/required: must list key names, got %v", path, r)
				}
				n.required = append(n.required, s)
			}
		case "items":
			if n.items, err = c.compile(x, path+"/items"); err != nil {
				return nil, err
			}
		case "enum":
			vals, ok := x.([]any)
			if !ok || len(vals) == 0 {
				return nil, fmt.Errorf("%s/enum: must be a non-empty list", path)
			}
			n.enum = vals
			var js []string
			for _, v := range vals {
				b, _ := json.Marshal(v)
				js = append(js, string(b))
			}
			n.allowed = strings.Join(js, ", ")
		case "const":
			n.hasConst, n.constant = true, x
			b, _ := json.Marshal(x)
			n.allowed = string(b)
		case "minimum":
			n.minimum, err = number(k)
		case "maximum":
			n.maximum, err = number(k)
		case "exclusiveMinimum":
			n.exMinimum, err = number(k)
		case "exclusiveMaximum":
			n.exMaximum, err = number(k)
		case "minItems":
			n.minItems, err = count(k)
		case "minLength":
			n.minLength, err = count(k)
		case "uniqueItems":
			b, ok := x.(bool)
			if !ok {
				return nil, fmt.Errorf("%s/uniqueItems: must be a boolean", path)
			}
			n.unique = b
		case "pattern":
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s/pattern: must be a string", path)
			}
			if n.pattern, err = regexp.Compile(s); err != nil {
				return nil, fmt.Errorf("%s/pattern: %w", path, err)
			}
		case "oneOf":
			n.oneOf, err = list(k)
		case "anyOf":
			n.anyOf, err = list(k)
		default:
			if !annotation(k) {
				return nil, fmt.Errorf("%s: keyword %q is not supported by this validator", path, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// resolve compiles the schema a "#/..." reference names, once.
func (c *compiler) resolve(ref string) (*node, error) {
	if n, ok := c.refs[ref]; ok {
		return n, nil
	}
	cur := c.root
	for _, tok := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: no such schema", ref)
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if cur, ok = m[tok]; !ok {
			return nil, fmt.Errorf("%s: no such schema", ref)
		}
	}
	// A placeholder first, so that a recursive reference finds it.
	n := &node{}
	c.refs[ref] = n
	compiled, err := c.compile(cur, ref)
	if err != nil {
		return nil, err
	}
	*n = *compiled
	return n, nil
}

// Validate returns the violations of v, nil if it is valid.
func (s *Schema) Validate(v any) []Error {
	var errs []Error
	s.root.validate(v, "", &errs)
	return errs
}

// Valid reports whether v is valid.
func (s *Schema) Valid(v any) bool { return s.root.valid(v) }

func (n *node) valid(v any) bool {
	var errs []Error
	n.validate(v, "", &errs)
	return len(errs) == 0
}

func (n *node) validate(v any, ptr string, errs *[]Error) {
	for n.target != nil {
		n = n.target
	}
	if n.types != nil && !HasType(n.types, v) {
		*errs = append(*errs, Error{Kind: Type, Ptr: ptr, Expected: n.types})
		return // the other keywords would only repeat it
	}
	if n.oneOf != nil {
		matched := 0
		for _, b := range n.oneOf {
			if b.valid(v) {
				matched++
			}
		}
		if matched != 1 {
			*errs = append(*errs, Error{Kind: OneOf, Ptr: ptr})
		}
	}
	if n.anyOf != nil && !slices.ContainsFunc(n.anyOf, func(b *node) bool { return b.valid(v) }) {
		*errs = append(*errs, Error{Kind: AnyOf, Ptr: ptr})
	}
	if n.hasConst && !equal(v, n.constant) {
		*errs = append(*errs, Error{Kind: Const, Ptr: ptr, Allowed: n.allowed})
	}
	if n.enum != nil && !slices.ContainsFunc(n.enum, func(e any) bool { return equal(v, e) }) {
		*errs = append(*errs, Error{Kind: Enum, Ptr: ptr, Allowed: n.allowed})
	}
	switch x := v.(type) {
	case string:
		if n.minLength >= 0 && utf8.RuneCountInString(x) < n.minLength {
			*errs = append(*errs, Error{Kind: MinLength, Ptr: ptr, Bound: float64(n.minLength)})
		}
		if n.pattern != nil && !n.pattern.MatchString(x) {
			*errs = append(*errs, Error{Kind: Pattern, Ptr: ptr, Pattern: n.pattern.String()})
		}
	case int64, float64:
		n.validateNumber(x, ptr, errs)
	case []any:
		if n.minItems >= 0 && len(x) < n.minItems {
			*errs = append(*errs, Error{Kind: MinItems, Ptr: ptr, Bound: float64(n.minItems)})
		}
		if n.unique {
			seen := map[string]bool{}
			for j, e := range x {
				k := key(e)
				if seen[k] {
					*errs = append(*errs, Error{Kind: Unique, Ptr: ptr, Index: j})
				}
				seen[k] = true
			}
		}
		if n.items != nil {
			for i, e := range x {
				n.items.validate(e, ptr+"/"+strconv.Itoa(i), errs)
			}
		}
	case map[string]any:
		for _, r := range n.required {
			if _, ok := x[r]; !ok {
				*errs = append(*errs, Error{Kind: Required, Ptr: ptr, Property: r})
			}
		}
		for _, k := range sortedKeys(x) {
			sub := ptr + "/" + escape(k)
			switch p, ok := n.props[k]; {
			case ok:
				p.validate(x[k], sub, errs)
			case n.noMore:
				*errs = append(*errs, Error{Kind: AdditionalProperty, Ptr: ptr, Property: k})
			case n.additional != nil:
				n.additional.validate(x[k], sub, errs)
			}
		}
	}
}

func (n *node) validateNumber(v any, ptr string, errs *[]Error) {
	var x big.Float
	switch v := v.(type) {
	case int64:
		x.SetInt64(v)
	case float64:
		x.SetFloat64(v)
	}
	cmp := func(b float64) int { return x.Cmp(big.NewFloat(b)) }
	if n.minimum != nil && cmp(*n.minimum) < 0 {
		*errs = append(*errs, Error{Kind: Minimum, Ptr: ptr, Bound: *n.minimum})
	}
	if n.exMinimum != nil && cmp(*n.exMinimum) <= 0 {
		*errs = append(*errs, Error{Kind: Minimum, Ptr: ptr, Bound: *n.exMinimum, Exclusive: true})
	}
	if n.maximum != nil && cmp(*n.maximum) > 0 {
		*errs = append(*errs, Error{Kind: Maximum, Ptr: ptr, Bound: *n.maximum})
	}
	if n.exMaximum != nil && cmp(*n.exMaximum) >= 0 {
		*errs = append(*errs, Error{Kind: Maximum, Ptr: ptr, Bound: *n.exMaximum, Exclusive: true})
	}
}

// HasType reports whether v is of one of the JSON Schema types; an
// integral float64 is an integer, as in JSON.
func HasType(types []string, v any) bool {
	for _, t := range types {
		switch t {
		case "null":
			if v == nil {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "number":
			switch v.(type) {
			case int64, float64:
				return true
			}
		case "integer":
			switch x := v.(type) {
			case int64:
				return true
			case float64:
				if x == math.Trunc(x) && !math.IsInf(x, 0) {
					return true
				}
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		}
	}
	return false
}

// equal is JSON equality: numbers by value, whatever their Go type.
func equal(a, b any) bool { return key(a) == key(b) }

// key writes v so that two values write alike exactly when they are
// equal as JSON: map keys sorted, numbers by value.
func key(v any) string {
	var b strings.Builder
	writeKey(&b, v)
	return b.String()
}

func writeKey(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case int64:
		b.WriteString(new(big.Float).SetInt64(x).Text('g', -1))
	case float64:
		b.WriteString(big.NewFloat(x).Text('g', -1))
	case int:
		b.WriteString(new(big.Float).SetInt64(int64(x)).Text('g', -1))
	case []any:
		b.WriteString("[")
		for _, e := range x {
			writeKey(b, e)
			b.WriteString(",")
		}
		b.WriteString("]")
	case map[string]any:
		b.WriteString("{")
		for _, k := range sortedKeys(x) {
			b.WriteString(strconv.Quote(k))
			b.WriteString(":")
			writeKey(b, x[k])
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		fmt.Fprintf(b, "%T:%v", v, v)
	}
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
