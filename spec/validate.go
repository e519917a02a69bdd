package spec

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/internal/suggest"
)

// validate checks d.value against the spec schema and records one clear
// error per problem, at the position of the value (or key) at fault.
func (d *document) validate(s *specSchema) {
	errs, err := check(s.compiled, d.value, "")
	if err != nil {
		d.errorAt(1, 1, "internal error while validating the spec: %v", err)
		return
	}
	// A failed oneOf is explained by checkAlternatives, which picks the
	// branch by the value's type; gojsonschema's guess at the branch
	// meant is dropped with everything else below it.
	alts := map[string]bool{}
	for _, e := range errs {
		if t := e.Type(); t == "number_one_of" || t == "number_any_of" {
			alts[e.ptr] = true
		}
	}
	for _, e := range errs {
		if d.suppressed(subject(e), alts) {
			continue
		}
		d.schemaError(s, e)
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
func subject(e violation) string {
	if e.Type() == "additional_property_not_allowed" {
		return e.ptr + "/" + escapeToken(detail(e, "property"))
	}
	return e.ptr
}

// detail returns the detail k of an error as text.
func detail(e violation, k string) string {
	switch x := e.Details()[k].(type) {
	case nil:
		return ""
	case *big.Float:
		f, _ := x.Float64()
		return strconv.FormatFloat(f, 'f', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}

// schemaError words one schema error.
func (d *document) schemaError(s *specSchema, e violation) {
	ptr := e.ptr
	field := d.display(ptr)
	v, _ := d.valueAt(ptr)
	switch e.Type() {
	case "additional_property_not_allowed":
		k := detail(e, "property")
		valid := s.keys(ptr)
		hint := ""
		if m := closest(k, valid); m != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", m)
		}
		if k == "group_threads" && ptr == "/defaults" {
			d.errorKey(ptr+"/"+escapeToken(k), "group_threads belongs in the benchmarks entry that selects the group, not in defaults: which members a group has is that entry's business")
			return
		}
		d.errorKey(ptr+"/"+escapeToken(k), "unknown key %q %s%s; valid keys: %s", k, d.where(ptr), hint, strings.Join(valid, ", "))
	case "invalid_property_name": // a group member's name (group_threads)
		k := detail(e, "property")
		d.errorKey(ptr+"/"+escapeToken(k), "%s: invalid member name %s; a group's member names have only letters, digits and _ . / -", field, short(k))
	case "required":
		d.errorPtr(ptr, "missing required key %q %s", detail(e, "property"), d.where(ptr))
	case "invalid_type":
		expected := typeList(strings.Split(strings.Trim(detail(e, "expected"), "[]"), ","))
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
		allowed := strings.ReplaceAll(detail(e, "allowed"), `"`, "")
		hint := ""
		if strings.Contains(allowed, "avgt") {
			hint = jmhModeHint(v)
		}
		if str, ok := v.(string); ok && hint == "" {
			// Not for a word that shares nothing with it ("xy" is not "s").
			if m := closest(str, strings.Split(allowed, ", ")); m != "" && suggest.Distance(strings.ToLower(str), strings.ToLower(m)) < max(len(str), len(m)) {
				hint = fmt.Sprintf(" (did you mean %q?)", m)
			}
		}
		d.errorPtr(ptr, "%s: invalid value %s%s; valid values: %s", field, short(v), hint, allowed)
	case "const":
		if _, isNum := v.(int64); isNum && ptr == "/version" {
			d.errorPtr(ptr, "version: unsupported spec version %v; this benchspec reads version %s", v, detail(e, "allowed"))
			return
		}
		d.errorPtr(ptr, "%s: must be %s, got %s", field, detail(e, "allowed"), describe(v))
	case "number_gte":
		hint := ""
		if strings.Contains(ptr, "/group_threads/") {
			hint = ": every member of a group runs on 1 thread or more"
		}
		d.errorPtr(ptr, "%s: must be at least %s, got %s%s", field, detail(e, "min"), number(v), hint)
	case "number_gt":
		d.errorPtr(ptr, "%s: must be greater than %s, got %s", field, detail(e, "min"), number(v))
	case "number_lte":
		d.errorPtr(ptr, "%s: must be at most %s, got %s", field, detail(e, "max"), number(v))
	case "number_lt":
		d.errorPtr(ptr, "%s: must be less than %s, got %s", field, detail(e, "max"), number(v))
	case "array_min_items", "string_gte":
		d.errorPtr(ptr, "%s: must not be empty", field)
	case "unique":
		item := ptr + "/" + detail(e, "j")
		iv, _ := d.valueAt(item)
		d.errorPtr(item, "%s: %s is listed twice", field, short(iv))
	case "pattern":
		switch _, names := v.(map[string]any); {
		case names:
			// propertyNames: invalid_property_name names the key.
		case isDuration(s, ptr):
			// checkSemantics explains durations with time.ParseDuration.
		case ptr == "/name" && isDots(v):
			d.errorPtr(ptr, "name: invalid name %s; a name of dots only is not a directory of its own under --results-dir", short(v))
		case ptr == "/name":
			d.errorPtr(ptr, "name: invalid name %s; use only letters, digits, '_', '.' and '-'", short(v))
		case strings.HasPrefix(ptr, "/builds/"):
			d.errorPtr(ptr, "%s: invalid value %s; %s", field, short(v), buildPatternHint(ptr))
		case strings.HasSuffix(ptr, "/precision/error"):
			d.errorPtr(ptr, "%s: invalid error %s; want a percentage above 0 followed by %%, such as 1%% or 0.5%%", field, short(v))
		default:
			d.errorPtr(ptr, "%s: %s does not match %s", field, short(v), detail(e, "pattern"))
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
		hint := ""
		if strings.HasSuffix(ptr, "/modes") {
			hint = jmhModeHint(v)
		}
		d.errorPtr(ptr, "%s: expected %s, got %s%s", d.display(ptr), strings.Join(titles, " or "), describe(v), hint)
	}
	for _, b := range branches {
		if !hasType(b.types, v) {
			continue
		}
		errs, err := check(b.compiled, v, ptr)
		if err != nil || len(errs) == 0 {
			break
		}
		reportedWhole := false
		for _, e := range errs {
			if e.ptr == ptr && e.Type() != "unique" {
				if !reportedWhole {
					whole()
					reportedWhole = true
				}
				continue
			}
			d.schemaError(s, e)
		}
		return
	}
	whole()
}

// hasType reports whether the document value v is of one of the JSON
// Schema types; a whole float64 is an integer, as in JSON.
func hasType(types []string, v any) bool {
	for _, t := range types {
		switch x := v.(type) {
		case nil:
			if t == "null" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case int64:
			if t == "number" || t == "integer" {
				return true
			}
		case float64:
			if t == "number" || t == "integer" && x == math.Trunc(x) {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		}
	}
	return false
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

// closest returns the candidate nearest to s in edit distance, if it is
// close enough to be a likely typo.
func closest(s string, candidates []string) string { return suggest.Typo(s, candidates) }

// buildPatternHint says what a key of a build (at ptr, under /builds)
// takes, for a value its pattern refuses.
func buildPatternHint(ptr string) string {
	switch ptr[strings.LastIndexByte(ptr, '/')+1:] {
	case "name":
		return "use only letters, digits, '_', '.' and '-'"
	case "toolchain":
		return "want local or a Go release as GOTOOLCHAIN names it, such as go1.26.8"
	case "gcflags", "pgo":
		return "a newline or NUL cannot be part of one argument of the go command"
	}
	return "a build tag has only letters, digits, '_' and '.'"
}
