package spec

import (
	"math"
	"slices"
	"strconv"
	"strings"
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
	var key strings.Builder
	seen := map[string]bool{}
	var shapes []any
	for _, e := range entries {
		entry, ok := e.(map[string]any)
		if !ok {
			return false
		}
		shape := make(map[string]any, len(entry))
		for k, v := range entry {
			if k == "include" || k == "exclude" {
				p, ok := v.(string)
				if !ok || p == "" {
					return false
				}
				v = "pattern"
			}
			shape[k] = v
		}
		key.Reset()
		if !canonical(&key, shape) {
			return false
		}
		if k := key.String(); !seen[k] {
			seen[k] = true
			shapes = append(shapes, shape)
		}
	}
	reduced := make(map[string]any, len(root))
	for k, v := range root {
		reduced[k] = v
	}
	reduced["benchmarks"] = shapes
	return s.compiled.Valid(reduced)
}

// canonical writes v (a document value: map[string]any, []any, string,
// int64, float64, bool, nil) so that two values write alike exactly when
// they are equal, with the type of every scalar: map keys sorted, strings
// quoted. It reports false for anything else.
func canonical(b *strings.Builder, v any) bool {
	switch x := v.(type) {
	case nil:
		b.WriteString("n")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString("i")
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString("f")
		b.WriteString(strconv.FormatUint(math.Float64bits(x), 16))
	case string:
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteString("[")
		for _, e := range x {
			if !canonical(b, e) {
				return false
			}
			b.WriteString(",")
		}
		b.WriteString("]")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			b.WriteString(":")
			if !canonical(b, x[k]) {
				return false
			}
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		return false
	}
	return true
}
