package schemas

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"
)

// The schemas are read by clients we do not control: editors through the
// yaml-language-server, CI steps through ajv, code generators. Issue 19
// found ajv in strict mode refusing both (a union "type" list; "required"
// percentile keys that "properties" did not declare). These tests hold
// them to what strict clients demand.

var allSchemas = []struct {
	name string
	data []byte
}{{"spec.schema.json", Spec}, {"result.schema.json", Result}, {"history.schema.json", History},
	{"comparison.schema.json", Comparison}, {"ab.schema.json", AB}}

// TestSchemasMatchTheMetaSchema checks every schema against the draft-07
// meta-schema (gojsonschema's, with its validation of the schema on),
// which compiling a schema alone does not, and that the spec schema
// accepts every example spec read as plain YAML, without package spec's
// typing and positions.
func TestSchemasMatchTheMetaSchema(t *testing.T) {
	compiled := map[string]*gojsonschema.Schema{}
	for _, s := range allSchemas {
		var err error
		if compiled[s.name], err = compile(s.data, true); err != nil {
			t.Fatalf("%s does not match the draft-07 meta-schema: %v", s.name, err)
		}
	}
	sl := gojsonschema.NewSchemaLoader()
	sl.Validate = true
	if _, err := sl.Compile(gojsonschema.NewStringLoader(`{"$schema": "http://json-schema.org/draft-07/schema#", "minItems": -1}`)); err == nil {
		t.Error("a schema with minItems -1 compiles: the meta-schema is not checked")
	}
	specs, err := filepath.Glob("../examples/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../examples/*/specs/*.yaml")
	lab, _ := filepath.Glob("../tools/*/*.yaml")
	more = append(more, lab...)
	n := 0
	for _, path := range append(specs, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if m, ok := doc.(map[string]any); !ok || m["benchmarks"] == nil {
			continue // a Kubernetes manifest or another YAML file
		}
		n++
		res, err := compiled["spec.schema.json"].Validate(gojsonschema.NewGoLoader(doc))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !res.Valid() {
			t.Errorf("%s: the spec schema refuses it: %v", path, res.Errors())
		}
	}
	if n < 10 {
		t.Errorf("checked %d example specs, want the ten or more of examples/", n)
	}
}

// TestSchemasStrict checks every schema against the rules of ajv's strict
// mode that a draft-07 schema can break, so that this check runs wherever
// go test runs (TestSchemasAjvStrict runs ajv itself where it is
// installed, as in CI):
//
//   - strictSchema: no keyword that draft-07 does not define;
//   - strictTypes: no union of types in "type" (one type, or one and
//     "null"), and a keyword that applies to one type only (properties,
//     items, minimum, pattern…) beside a "type" that includes it;
//   - strictRequired: every "required" key declared in "properties";
//   - strictTuples: an "items" list bounded by minItems and
//     additionalItems: false or maxItems.
func TestSchemasStrict(t *testing.T) {
	for _, s := range allSchemas {
		var root any
		if err := yaml.Unmarshal(s.data, &root); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		var problems []string
		strictWalk(root.(map[string]any), "#", &problems)
		sort.Strings(problems)
		for _, p := range problems {
			t.Errorf("%s: %s", s.name, p)
		}
	}
}

// draft07Keywords are the keywords of draft-07 (validation, applicators
// and annotations) that ajv knows; any other key in a schema is an error
// in strict mode.
var draft07Keywords = map[string]bool{
	"$schema": true, "$id": true, "$ref": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "readOnly": true, "writeOnly": true, "definitions": true,
	"type": true, "enum": true, "const": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"maxLength": true, "minLength": true, "pattern": true, "format": true, "contentMediaType": true, "contentEncoding": true,
	"items": true, "additionalItems": true, "maxItems": true, "minItems": true, "uniqueItems": true, "contains": true,
	"maxProperties": true, "minProperties": true, "required": true, "properties": true, "patternProperties": true,
	"additionalProperties": true, "dependencies": true, "propertyNames": true,
	"if": true, "then": true, "else": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
}

// typeOf is the one JSON type a type-specific keyword applies to.
var typeOf = map[string]string{
	"multipleOf": "number", "maximum": "number", "exclusiveMaximum": "number", "minimum": "number", "exclusiveMinimum": "number",
	"maxLength": "string", "minLength": "string", "pattern": "string", "format": "string",
	"items": "array", "additionalItems": "array", "maxItems": "array", "minItems": "array", "uniqueItems": "array", "contains": "array",
	"maxProperties": "object", "minProperties": "object", "required": "object", "properties": "object",
	"patternProperties": "object", "additionalProperties": "object", "dependencies": "object", "propertyNames": "object",
}

func strictWalk(s map[string]any, at string, problems *[]string) {
	report := func(format string, args ...any) {
		*problems = append(*problems, at+": "+fmt.Sprintf(format, args...))
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, fmt.Sprint(x))
		}
		if len(slices.DeleteFunc(slices.Clone(types), func(x string) bool { return x == "null" })) > 1 {
			report("union type %v (strictTypes: write anyOf of single types)", types)
		}
	}
	for k := range s {
		if !draft07Keywords[k] {
			report("unknown keyword %q (strictSchema)", k)
		}
		if want, ok := typeOf[k]; ok && s["type"] != nil {
			if !slices.Contains(types, want) && !(want == "number" && slices.Contains(types, "integer")) {
				report("keyword %q applies to %s, but the type is %v (strictTypes)", k, want, types)
			}
		} else if ok && s["$ref"] == nil {
			report("keyword %q without type %s (strictTypes)", k, want)
		}
	}
	props, _ := s["properties"].(map[string]any)
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if _, ok := props[fmt.Sprint(r)]; !ok {
				report("required key %q not declared in properties (strictRequired)", r)
			}
		}
	}
	if items, ok := s["items"].([]any); ok {
		if s["minItems"] == nil || (s["additionalItems"] != false && s["maxItems"] == nil) {
			report("items list without minItems and additionalItems: false or maxItems (strictTuples)")
		}
		for i, x := range items {
			strictSub(x, fmt.Sprintf("%s/items/%d", at, i), problems)
		}
	}
	for _, k := range []string{"properties", "patternProperties", "definitions", "dependencies"} {
		m, _ := s[k].(map[string]any)
		for name, x := range m {
			strictSub(x, at+"/"+k+"/"+name, problems)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		l, _ := s[k].([]any)
		for i, x := range l {
			strictSub(x, fmt.Sprintf("%s/%s/%d", at, k, i), problems)
		}
	}
	for _, k := range []string{"items", "additionalItems", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else"} {
		strictSub(s[k], at+"/"+k, problems)
	}
}

// strictSub walks x if it is a schema object (true, false and the lists
// of "dependencies" are not).
func strictSub(x any, at string, problems *[]string) {
	if m, ok := x.(map[string]any); ok {
		strictWalk(m, at, problems)
	}
}

// TestSchemasAjvStrict compiles every schema with ajv in strict mode, the
// validator of many editors and CI tools, where it is installed:
// BENCHSPEC_AJV names a node_modules directory holding ajv (.ci/run
// installs the version .ci/ajv/package.json pins and sets it); without
// it, .ci/ajv/node_modules is used if present. Elsewhere the test is
// skipped; TestSchemasStrict checks the same rules in Go.
func TestSchemasAjvStrict(t *testing.T) {
	dir := os.Getenv("BENCHSPEC_AJV")
	if dir == "" {
		if _, err := os.Stat("../.ci/ajv/node_modules/ajv"); err != nil {
			t.Skip("ajv is not installed: set BENCHSPEC_AJV to a node_modules directory holding ajv 8, or run npm ci in .ci/ajv")
		}
		dir = "../.ci/ajv/node_modules"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("BENCHSPEC_AJV is set but node is not on PATH: %v", err)
	}
	args := []string{"testdata/ajv_strict.js"}
	for _, s := range allSchemas {
		args = append(args, s.name)
	}
	cmd := exec.Command(node, args...)
	cmd.Env = append(os.Environ(), "BENCHSPEC_AJV="+abs)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Errorf("ajv in strict mode refuses a schema (%v):\n%s", err, strings.TrimSpace(string(out)))
	}
}
