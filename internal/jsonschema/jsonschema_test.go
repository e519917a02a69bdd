package jsonschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/schemas"
)

func compile(t *testing.T, src string) *Schema {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	s, err := Compile(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSpecSchemaCompiles(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(schemas.Spec, &root); err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(root); err != nil {
		t.Fatal(err)
	}
}

func TestCompileRefuses(t *testing.T) {
	for src, want := range map[string]string{
		`{"format": "uri"}`:                      `keyword "format" is not supported`,
		`{"properties": {"a": {"allOf": [{}]}}}`: `#/properties/a: keyword "allOf"`,
		`{"$ref": "http://example.com/s.json"}`:  "only local references",
		`{"$ref": "#/definitions/missing"}`:      "#/definitions/missing: no such schema",
		`{"type": "text"}`:                       `unknown type "text"`,
		`{"pattern": "("}`:                       "#/pattern: error parsing regexp",
		`{"minItems": -1}`:                       "must be a non-negative integer",
		`{"oneOf": []}`:                          "must be a non-empty array",
		`{"definitions": {"a": {"x-y": 1}}, "$ref": "#/definitions/a"}`: `#/definitions/a: keyword "x-y"`,
	} {
		var root map[string]any
		if err := json.Unmarshal([]byte(src), &root); err != nil {
			t.Fatal(err)
		}
		_, err := Compile(root)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Compile(%s) = %v, want an error containing %q", src, err, want)
		}
	}
}

// TestViolations checks each keyword on a value that breaks it and on
// one that does not.
func TestViolations(t *testing.T) {
	s := compile(t, `{
	  "type": "object",
	  "required": ["n"],
	  "additionalProperties": false,
	  "definitions": {"count": {"type": "integer", "minimum": 0, "maximum": 10}},
	  "properties": {
	    "n": {"$ref": "#/definitions/count"},
	    "pos": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
	    "mode": {"enum": ["a", "b"]},
	    "version": {"const": 1},
	    "name": {"type": "string", "minLength": 1, "pattern": "^[a-z]*$"},
	    "list": {"type": "array", "minItems": 1, "uniqueItems": true, "items": {"type": ["string", "integer"]}},
	    "one": {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 5}, {"type": "integer", "maximum": 7}]},
	    "any": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
	    "env": {"type": "object", "additionalProperties": {"type": "string"}}
	  }
	}`)
	for _, c := range []struct {
		doc  string
		want string // the violations, "kind ptr detail", ";"-separated
	}{
		{`{"n": 3, "pos": 0.5, "mode": "a", "version": 1.0, "name": "x", "list": ["a", 1, 2e0], "one": 3, "any": true, "env": {"A": "1"}}`, ""},
		{`{"n": 3, "list": [1, 1.0, "1", 2, 1], "one": 6, "any": 1, "env": {"A": 1}}`,
			"AnyOf /any ;Type /env/A [string];Unique /list 1;Unique /list 4;OneOf /one "},
		{`[]`, "Type  [object]"},
		{`{"x": 1, "y": 2}`, "Required  n;AdditionalProperty  x;AdditionalProperty  y"},
		{`{"n": -1}`, "Minimum /n 0"},
		{`{"n": 11}`, "Maximum /n 10"},
		{`{"n": 1.5}`, "Type /n [integer]"},
		{`{"n": 0, "pos": 0}`, "Minimum /pos 0 exclusive"},
		{`{"n": 0, "pos": 1}`, "Maximum /pos 1 exclusive"},
		{`{"n": 0, "mode": "c", "version": 2}`, `Enum /mode "a", "b";Const /version 1`},
		{`{"n": 0, "name": ""}`, "MinLength /name 1"},
		{`{"n": 0, "name": "A"}`, "Pattern /name ^[a-z]*$"},
		{`{"n": 0, "list": []}`, "MinItems /list 1"},
		{`{"n": 0, "list": [true]}`, "Type /list/0 [string integer]"},
		{`{"n": 0, "a/b~c": 1}`, "AdditionalProperty  a/b~c"},
		{`{"n": 0, "env": {"a/b": 1}}`, "Type /env/a~1b [string]"},
	} {
		var v any
		dec := json.NewDecoder(strings.NewReader(c.doc))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		v = fromJSON(v)
		var got []string
		for _, e := range s.Validate(v) {
			got = append(got, describe(e))
		}
		if g := strings.Join(got, ";"); g != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.doc, g, c.want)
		}
		if s.Valid(v) != (c.want == "") {
			t.Errorf("%s: Valid = %v", c.doc, s.Valid(v))
		}
	}
}

var kindNames = map[Kind]string{
	Type: "Type", AdditionalProperty: "AdditionalProperty", Required: "Required", Enum: "Enum",
	Const: "Const", Minimum: "Minimum", Maximum: "Maximum", MinItems: "MinItems", MinLength: "MinLength",
	Unique: "Unique", Pattern: "Pattern", OneOf: "OneOf", AnyOf: "AnyOf",
}

func describe(e Error) string {
	var detail string
	switch e.Kind {
	case Type:
		detail = fmt.Sprint(e.Expected)
	case AdditionalProperty, Required:
		detail = e.Property
	case Enum, Const:
		detail = e.Allowed
	case Minimum, Maximum, MinItems, MinLength:
		detail = formatBound(e.Bound)
		if e.Exclusive {
			detail += " exclusive"
		}
	case Unique:
		detail = fmt.Sprint(e.Index)
	case Pattern:
		detail = e.Pattern
	}
	if e.Description() == "invalid" {
		detail += " (no description)"
	}
	return kindNames[e.Kind] + " " + e.Ptr + " " + detail
}

// fromJSON turns json.Numbers into int64 or float64 as the spec loader
// does: a number written with a fraction or an exponent is a float64.
func fromJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && !strings.ContainsAny(string(x), ".eE") {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = fromJSON(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = fromJSON(x[k])
		}
	}
	return v
}
