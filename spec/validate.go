package spec

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/internal/suggest"
	"github.com/xeipuuv/gojsonschema"
)

// validate checks d.value against the spec schema and records one clear
// error per problem, at the position of the value (or key) at fault.
func (d *document) validate(s *specSchema) {
	if d.quickValid(s) {
		return
	}
	res, err := s.compiled.Validate(gojsonschema.NewGoLoader(d.value))
	if err != nil {
		d.errorAt(1, 1, "internal error: validating against the spec schema: %v", err)
		return
	}
	errs := res.Errors()
	// gojsonschema reports a failed oneOf as "must validate one and only
	// one schema" plus the errors of whichever branch scored best. Both
	// are replaced by checkAlternatives, which picks the branch by the
	// value's type.
	alts := map[string]bool{}
	for _, e := range errs {
		if e.Type() == "number_one_of" || e.Type() == "number_any_of" {
			alts[contextPointer(e.Context())] = true
		}
	}
	for _, e := range errs {
		ptr := contextPointer(e.Context())
		if d.suppressed(subject(e, ptr), alts) {
			continue
		}
		d.schemaError(s, e, ptr)
	}
	for _, ptr := range sortedKeys(alts) {
		if !d.suppressed(ptr, nil) {
			d.checkAlternatives(s, ptr)
		}
	}
}

// suppressed reports whether errors about the value at ptr are noise: the
// value, or one containing it, was replaced while loading or is handled as
// a whole by checkAlternatives.
func (d *document) suppressed(ptr string, alts map[string]bool) bool {
	for p := ptr; ; p = p[:strings.LastIndexByte(p, '/')] {
		if d.bad[p] || alts[p] {
			return true
		}
		if p == "" {
			return false
		}
	}
}

// subject is the pointer an error is about: the offending key for an
// unknown key, else the value the error is attached to.
func subject(e gojsonschema.ResultError, ptr string) string {
	if e.Type() == "additional_property_not_allowed" {
		if k, ok := e.Details()["property"].(string); ok {
			return ptr + "/" + escapeToken(k)
		}
	}
	return ptr
}

// contextPointer converts gojsonschema's context ("(root).benchmarks.0")
// to a JSON pointer ("/benchmarks/0"). A NUL separator keeps keys that
// contain dots intact.
func contextPointer(c *gojsonschema.JsonContext) string {
	if c == nil {
		return ""
	}
	toks := strings.Split(c.String("\x00"), "\x00")
	var b strings.Builder
	for _, t := range toks[1:] { // toks[0] is "(root)"
		b.WriteString("/" + escapeToken(t))
	}
	return b.String()
}

// schemaError words one gojsonschema error.
func (d *document) schemaError(s *specSchema, e gojsonschema.ResultError, ptr string) {
	field := d.display(ptr)
	v, _ := d.valueAt(ptr)
	det := e.Details()
	switch e.Type() {
	case "additional_property_not_allowed":
		k, _ := det["property"].(string)
		valid := s.keys(ptr)
		hint := ""
		if m := closest(k, valid); m != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", m)
		}
		d.errorKey(ptr+"/"+escapeToken(k), "unknown key %q %s%s; valid keys: %s", k, d.where(ptr), hint, strings.Join(valid, ", "))
	case "required":
		d.errorPtr(ptr, "missing required key %q %s", det["property"], d.where(ptr))
	case "invalid_type":
		expected := typeList(strings.Split(strings.Trim(fmt.Sprint(det["expected"]), "[]"), ","))
		switch {
		case ptr == "":
			d.errorPtr(ptr, "a spec must be a mapping with version, name and benchmarks, got %s", describe(v))
		case isEnvValue(ptr) && isScalar(v):
			d.errorPtr(ptr, "%s: expected string, got %s (quote it: \"%v\")", field, describe(v), v)
		case isDuration(s, ptr):
			d.errorPtr(ptr, "%s: expected a duration such as 500ms, 10s or 2m, got %s", field, describe(v))
		default:
			d.errorPtr(ptr, "%s: expected %s, got %s", field, expected, describe(v))
		}
	case "enum":
		d.errorPtr(ptr, "%s: invalid value %s; valid values: %s", field, short(v), strings.ReplaceAll(fmt.Sprint(det["allowed"]), `"`, ""))
	case "const":
		if _, isNum := v.(int64); isNum && ptr == "/version" {
			d.errorPtr(ptr, "version: unsupported spec version %v; this benchspec reads version %v", v, det["allowed"])
			return
		}
		d.errorPtr(ptr, "%s: must be %v, got %s", field, det["allowed"], describe(v))
	case "number_gte", "number_gt":
		d.errorPtr(ptr, "%s: must be at least %s, got %s", field, bound(det["min"]), number(v))
	case "number_lte", "number_lt":
		d.errorPtr(ptr, "%s: must be at most %s, got %s", field, bound(det["max"]), number(v))
	case "array_min_items":
		d.errorPtr(ptr, "%s: must not be empty", field)
	case "string_gte":
		d.errorPtr(ptr, "%s: must not be empty", field)
	case "unique":
		j, _ := det["j"].(int)
		item := ptr + "/" + strconv.Itoa(j)
		iv, _ := d.valueAt(item)
		d.errorPtr(item, "%s: %s is listed twice", field, short(iv))
	case "pattern":
		switch {
		case isDuration(s, ptr):
			// checkSemantics explains durations with time.ParseDuration.
		case ptr == "/name" && isDots(v):
			d.errorPtr(ptr, "name: invalid name %s; a name of dots only is not a directory of its own under --results-dir", short(v))
		case ptr == "/name":
			d.errorPtr(ptr, "name: invalid name %s; use only letters, digits, '_', '.' and '-'", short(v))
		default:
			d.errorPtr(ptr, "%s: %s does not match %v", field, short(v), det["pattern"])
		}
	default:
		d.errorPtr(ptr, "%s: %s", field, e.Description())
	}
}

// checkAlternatives explains why the value at ptr matches no branch of its
// oneOf. If the value has the type of one branch, that branch's errors
// inside the value are reported (modes[1]: invalid value); a problem with
// the value as a whole is one message listing what the alternatives
// accept.
func (d *document) checkAlternatives(s *specSchema, ptr string) {
	v, _ := d.valueAt(ptr)
	_, path, _ := s.lookup(ptr)
	branches := s.alternatives[path]
	var titles []string
	for _, b := range branches {
		titles = append(titles, b.title)
	}
	whole := func() {
		d.errorPtr(ptr, "%s: expected %s, got %s", d.display(ptr), strings.Join(titles, " or "), describe(v))
	}
	for _, b := range branches {
		if !hasType(b.types, v) {
			continue
		}
		res, err := b.compiled.Validate(gojsonschema.NewGoLoader(v))
		if err != nil || res.Valid() {
			break
		}
		reportedWhole := false
		for _, e := range res.Errors() {
			sub := ptr + contextPointer(e.Context())
			if sub == ptr {
				if !reportedWhole {
					whole()
					reportedWhole = true
				}
				continue
			}
			d.schemaError(s, e, sub)
		}
		return
	}
	whole()
}

// where names the mapping at ptr for "unknown key ... in X" messages.
func (d *document) where(ptr string) string {
	if ptr == "" {
		return "at top level"
	}
	return "in " + d.display(ptr)
}

// isDots reports whether v is a non-empty string of dots only.
func isDots(v any) bool {
	s, ok := v.(string)
	return ok && s != "" && strings.Trim(s, ".") == ""
}

// isEnvValue reports whether ptr names a variable of an env mapping.
func isEnvValue(ptr string) bool {
	toks := strings.Split(ptr, "/")
	return len(toks) >= 3 && toks[len(toks)-2] == "env"
}

// isDuration reports whether the schema wants a duration at ptr.
func isDuration(s *specSchema, ptr string) bool {
	_, path, _ := s.lookup(ptr)
	return path == "#/definitions/duration"
}

// isScalar reports whether v is a number or a boolean, a value that
// becomes a string by quoting it.
func isScalar(v any) bool {
	switch v.(type) {
	case int64, float64, bool:
		return true
	}
	return false
}

// hasType reports whether v is of one of the JSON Schema types.
func hasType(types []string, v any) bool {
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
				if x == math.Trunc(x) {
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

// typeList words JSON Schema type names as YAML users know them:
// "string, number or boolean".
func typeList(types []string) string {
	words := make([]string, 0, len(types))
	for _, t := range types {
		words = append(words, yamlType(strings.TrimSpace(t)))
	}
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func yamlType(t string) string {
	switch t {
	case "object":
		return "mapping"
	case "array":
		return "list"
	}
	return t
}

// describe words a value for "got ...": `string "three"`, `integer 3`,
// `mapping`, `empty list`.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case string:
		return "string " + short(x)
	case int64:
		return fmt.Sprintf("integer %d", x)
	case float64:
		return "number " + number(x)
	case []any:
		if len(x) == 0 {
			return "empty list"
		}
		return "list"
	case map[string]any:
		if len(x) == 0 {
			return "empty mapping"
		}
		return "mapping"
	}
	return fmt.Sprintf("%T", v)
}

// short quotes a string, cut to a readable length; other values print
// as they are.
func short(v any) string {
	s, ok := v.(string)
	if !ok {
		return fmt.Sprint(v)
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:37]) + "..."
	}
	return strconv.Quote(s)
}

func number(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// bound prints a schema minimum or maximum, which gojsonschema hands over
// as a *big.Float, in plain decimal.
func bound(x any) string {
	if f, ok := x.(*big.Float); ok {
		return f.Text('f', -1)
	}
	return fmt.Sprint(x)
}

// closest returns the candidate nearest to s in edit distance, if it is
// close enough to be a likely typo.
func closest(s string, candidates []string) string { return suggest.Typo(s, candidates) }
