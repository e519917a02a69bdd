package spec

import (
	"math"
	"slices"
	"strconv"
)

// A spec of thousands of entries repeats a few entry shapes: entries that
// differ only in their include (and exclude) pattern. The schema checks
// each entry on its own (benchmarks is a list of #/definitions/entry,
// nothing relates one entry to another, and it asks no more of include
// and exclude than a non-empty string), so a spec is valid exactly when
// the spec with its entries reduced to one per shape is, and every
// pattern is a non-empty string. quickValid checks that, validating a few
// entries instead of thousands; the schema's verdict is the same, and a
// spec it cannot vouch for goes through the full validation, which words
// every error.

// quickValid reports whether d.value is valid against the schema, judged
// on one entry per shape. false means "not shown valid", not "invalid".
func (d *document) quickValid(s *specSchema) bool {
	root, ok := d.value.(map[string]any)
	if !ok {
		return false
	}
	entries, ok := root["benchmarks"].([]any)
	if !ok || len(entries) < 2 {
		return false // nothing to gain
	}
	// One key per entry, written into one reused buffer: a map lookup
	// by string(key) does not copy it, so only a new shape allocates.
	var key []byte
	seen := map[string]bool{}
	var shapes []any
	for _, e := range entries {
		entry, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if key, ok = appendShape(key[:0], entry); !ok {
			return false
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			shapes = append(shapes, shapeOf(entry))
		}
	}
	reduced := make(map[string]any, len(root))
	for k, v := range root {
		reduced[k] = v
	}
	reduced["benchmarks"] = shapes
	return s.compiled.Valid(reduced)
}

// appendShape appends to b the canonical form (appendCanonical) of
// entry's shape: the entry with its include and exclude, which must be
// non-empty strings, written as the string "pattern". It reports false
// for anything else.
func appendShape(b []byte, entry map[string]any) ([]byte, bool) {
	for _, k := range []string{"include", "exclude"} {
		if v, ok := entry[k]; ok {
			if p, ok := v.(string); !ok || p == "" {
				return b, false
			}
		}
	}
	return appendMap(b, entry, true)
}

// shapeOf is entry with its include and exclude replaced by "pattern".
func shapeOf(entry map[string]any) map[string]any {
	shape := make(map[string]any, len(entry))
	for k, v := range entry {
		if k == "include" || k == "exclude" {
			v = "pattern"
		}
		shape[k] = v
	}
	return shape
}

// appendCanonical appends v (a document value: map[string]any, []any,
// string, int64, float64, bool, nil) to b so that two values write alike
// exactly when they are equal, with the type of every scalar: each
// element is tagged and delimits itself (strings by their length), map
// keys sorted. It reports false for anything else.
func appendCanonical(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		b = append(b, 'n')
	case bool:
		if x {
			b = append(b, 'T')
		} else {
			b = append(b, 'F')
		}
	case int64:
		b = append(b, 'i')
		b = strconv.AppendInt(b, x, 10)
		b = append(b, ';')
	case float64:
		b = append(b, 'd')
		b = strconv.AppendUint(b, math.Float64bits(x), 16)
		b = append(b, ';')
	case string:
		b = appendString(b, x)
	case []any:
		b = append(b, '[')
		for _, e := range x {
			var ok bool
			if b, ok = appendCanonical(b, e); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	case map[string]any:
		return appendMap(b, x, false)
	default:
		return b, false
	}
	return b, true
}

// appendMap is appendCanonical for a mapping; with patterns, the values
// of include and exclude are written as the string "pattern".
func appendMap(b []byte, m map[string]any, patterns bool) ([]byte, bool) {
	var small [16]string // an entry's keys: no allocation to sort them
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for _, k := range keys {
		b = appendString(b, k)
		if patterns && (k == "include" || k == "exclude") {
			b = appendString(b, "pattern")
			continue
		}
		var ok bool
		if b, ok = appendCanonical(b, m[k]); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendString writes s as 's', its length, ':' and its bytes.
func appendString(b []byte, s string) []byte {
	b = append(b, 's')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}
