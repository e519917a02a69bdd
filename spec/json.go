package spec

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
)

// The JSON of Settings and Precision is encoding/json's, field by field
// in declaration order (Settings's in settingsKeyOrder, the JSON report's
// key order), except that a time.Duration is its Go string ("1m30s")
// rather than nanoseconds:
// readable in reports and plans, and what the spec itself says. Tags
// name the keys; "omitempty" and "omitzero" both leave out a zero field.

// durationType is a function, not a variable: a variable would be set
// by package initialisation, which every fork runs.
func durationType() reflect.Type { return reflect.TypeFor[time.Duration]() }

// settingsKeyOrder is the key order of Settings in JSON: the order the
// reports have always had, from before the fork's settings became one
// embedded struct. A key not listed follows them, in declaration order.
var settingsKeyOrder = []string{"modes", "threads", "forks", "warmup_forks", "warmup", "measurement",
	"ops_per_invocation", "time_unit", "timeout", "env", "gc_before_iteration", "profilers"}

// field is one key of a struct in JSON and the field that holds it.
type field struct {
	name string
	omit bool // when zero
	v    reflect.Value
}

// fields lists the keys of the struct v in declaration order, the keys
// of an embedded struct in its place, as encoding/json flattens them.
func fields(v reflect.Value) []field {
	var out []field
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, fields(v.Field(i))...)
		} else if name, omit, ok := jsonKey(f); ok {
			out = append(out, field{name, omit, v.Field(i)})
		}
	}
	return out
}

// marshalFields encodes the struct that v points to, its keys in order
// where order names them.
func marshalFields(v any, order []string) ([]byte, error) {
	fs := fields(reflect.ValueOf(v).Elem())
	rank := func(f field) int {
		if i := slices.Index(order, f.name); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(fs, func(a, b field) int { return cmp.Compare(rank(a), rank(b)) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the caller's encoder escapes, or not
	buf.WriteByte('{')
	first := true
	for _, f := range fs {
		if f.omit && f.v.IsZero() {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		val := f.v.Interface()
		if f.v.Type() == durationType() {
			val = time.Duration(f.v.Int()).String()
		}
		if err := enc.Encode(f.name); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(val); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// unmarshalFields decodes a JSON object into the struct that v points
// to. Unknown keys are ignored; absent and null keys leave their field
// as it was.
func unmarshalFields(data []byte, v any) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for _, f := range fields(reflect.ValueOf(v).Elem()) {
		msg, found := raw[f.name]
		if !found || string(msg) == "null" {
			continue
		}
		if f.v.Type() == durationType() {
			var s string
			if err := json.Unmarshal(msg, &s); err != nil {
				return fmt.Errorf("%s: want a Go duration string such as \"1s\": %w", f.name, err)
			}
			d, err := time.ParseDuration(s)
			if err != nil {
				return fmt.Errorf("%s: invalid duration %q (want Go syntax such as 500ms or 10m0s)", f.name, s)
			}
			f.v.SetInt(int64(d))
			continue
		}
		if err := json.Unmarshal(msg, f.v.Addr().Interface()); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// jsonKey is the key of field f and whether it is left out when zero;
// ok is false for unexported fields and `json:"-"`.
func jsonKey(f reflect.StructField) (name string, omitZero, ok bool) {
	if !f.IsExported() {
		return "", false, false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	for _, o := range strings.Split(opts, ",") {
		omitZero = omitZero || o == "omitempty" || o == "omitzero"
	}
	return name, omitZero, true
}
