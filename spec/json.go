package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// The JSON of Settings and Iterations is encoding/json's, field by field
// in declaration order (the JSON report's key order), except that a
// time.Duration is its Go string ("1m30s") rather than nanoseconds:
// readable in reports and plans, and what the spec itself says. Tags
// name the keys; "omitempty" and "omitzero" both leave out a zero field.

// durationType is a function, not a variable: a variable would be set
// by package initialisation, which every fork runs.
func durationType() reflect.Type { return reflect.TypeFor[time.Duration]() }

// marshalFields encodes the struct that v points to.
func marshalFields(v any) ([]byte, error) {
	rv := reflect.ValueOf(v).Elem()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the caller's encoder escapes, or not
	buf.WriteByte('{')
	first := true
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		name, omit, ok := jsonKey(f)
		fv := rv.Field(i)
		if !ok || omit && fv.IsZero() {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		var val any = fv.Interface()
		if f.Type == durationType() {
			val = time.Duration(fv.Int()).String()
		}
		if err := enc.Encode(name); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(val); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
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
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		name, _, ok := jsonKey(f)
		msg, found := raw[name]
		if !ok || !found || string(msg) == "null" {
			continue
		}
		fv := rv.Field(i)
		if f.Type == durationType() {
			var s string
			if err := json.Unmarshal(msg, &s); err != nil {
				return fmt.Errorf("%s: want a Go duration string such as \"1s\": %w", name, err)
			}
			d, err := time.ParseDuration(s)
			if err != nil {
				return fmt.Errorf("%s: invalid duration %q (want Go syntax such as 500ms or 10m0s)", name, s)
			}
			fv.SetInt(int64(d))
			continue
		}
		if err := json.Unmarshal(msg, fv.Addr().Interface()); err != nil {
			return fmt.Errorf("%s: %w", name, err)
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
