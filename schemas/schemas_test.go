package schemas

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
)

func TestSpecSchema(t *testing.T) { checkSchema(t, "spec.schema.json", Spec) }

// checkSchema checks that a schema is draft-07 JSON that compiles, with
// its identity at the top and a description on every property.
func checkSchema(t *testing.T, name string, doc []byte) {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(doc, &root); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	if _, err := compile(doc, false); err != nil {
		t.Fatalf("%s does not compile: %v", name, err)
	}
	for _, k := range []string{"$schema", "$id", "title", "description"} {
		if s, _ := root[k].(string); s == "" {
			t.Errorf("top level: %s missing", k)
		}
	}
	if got, want := root["$schema"], "http://json-schema.org/draft-07/schema#"; got != want {
		t.Errorf("$schema = %v, want %v", got, want)
	}
	walk(t, root, root, "#")
}

// compile compiles doc with the other schemas of allSchemas loaded by
// their $id, so that ab.schema.json's $refs resolve here rather than over
// the network; validate also checks doc against the draft-07
// meta-schema.
func compile(doc []byte, validate bool) (*gojsonschema.Schema, error) {
	sl := gojsonschema.NewSchemaLoader()
	sl.Validate = validate
	sl.Draft = gojsonschema.Draft7
	for _, s := range allSchemas {
		if string(s.data) != string(doc) && strings.Contains(string(doc), `"$ref": "`+s.name+`"`) {
			if err := sl.AddSchemas(gojsonschema.NewBytesLoader(s.data)); err != nil {
				return nil, fmt.Errorf("loading %s: %w", s.name, err)
			}
		}
	}
	return sl.Compile(gojsonschema.NewBytesLoader(doc))
}

// walk checks every subschema below node: each property has a
// description, no key is an "x-" extension, and each oneOf branch is
// self-contained and titled (package spec words errors with the titles).
func walk(t *testing.T, root, node any, path string) {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			if strings.HasPrefix(k, "x-") {
				t.Errorf("%s: extension key %q", path, k)
			}
			walk(t, root, v, path+"/"+k)
		}
		props, _ := n["properties"].(map[string]any)
		for name, p := range props {
			if describe(root, p) == "" {
				t.Errorf("%s/properties/%s: no description", path, name)
			}
		}
		alts, _ := n["oneOf"].([]any)
		for i, a := range alts {
			b, _ := a.(map[string]any)
			if s, _ := b["title"].(string); s == "" {
				t.Errorf("%s/oneOf/%d: no title", path, i)
			}
			if strings.Contains(mustJSON(t, b), `"$ref"`) {
				t.Errorf("%s/oneOf/%d: uses $ref; branches must be self-contained", path, i)
			}
		}
	case []any:
		for _, v := range n {
			walk(t, root, v, path+"/[]")
		}
	}
}

// describe returns the description of a subschema, following $ref.
func describe(root, node any) string {
	for range 10 {
		m, _ := node.(map[string]any)
		if d, _ := m["description"].(string); d != "" {
			return d
		}
		ref, _ := m["$ref"].(string)
		if !strings.HasPrefix(ref, "#/definitions/") {
			return ""
		}
		defs, _ := root.(map[string]any)["definitions"].(map[string]any)
		node = defs[strings.TrimPrefix(ref, "#/definitions/")]
	}
	return ""
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResultSchemaIsJSON(t *testing.T) {
	if !json.Valid(Result) {
		t.Fatal("result.schema.json is not JSON")
	}
}

// TestHistorySchema checks that the history schema compiles and that
// every property says what it holds; cmd/benchspec validates real
// history output against it.
func TestHistorySchema(t *testing.T) { checkSchema(t, "history.schema.json", History) }

// TestComparisonSchema and TestABSchema check that the schemas of compare
// and ab compile and describe every property; comparison_test.go holds
// them to the Go types and validates real output.
func TestComparisonSchema(t *testing.T) { checkSchema(t, "comparison.schema.json", Comparison) }

func TestABSchema(t *testing.T) { checkSchema(t, "ab.schema.json", AB) }
