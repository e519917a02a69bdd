package spec

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/schemas"
)

// TestSchemaDefaultsAreTheBuiltIns ties the "default" values that editors
// show from schemas/spec.schema.json to the settings a spec gets when it
// leaves a key out: a spec whose defaults write out every schema default
// must parse to exactly DefaultSettings (with the diagnostics thresholds
// of DefaultDiagSettings), and every key of `defaults` must have one.
func TestSchemaDefaultsAreTheBuiltIns(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(schemas.Spec, &root); err != nil {
		t.Fatal(err)
	}
	defs := root["definitions"].(map[string]any)
	deref := func(node any) map[string]any {
		m, _ := node.(map[string]any)
		for {
			ref, _ := m["$ref"].(string)
			if ref == "" || m["default"] != nil {
				return m
			}
			m = defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
		}
	}
	var missing []string
	var collect func(props map[string]any, path string) map[string]any
	collect = func(props map[string]any, path string) map[string]any {
		out := map[string]any{}
		for name, p := range props {
			sub := deref(p)
			if d, ok := sub["default"]; ok {
				out[name] = d
			} else if inner, ok := sub["properties"].(map[string]any); ok {
				out[name] = collect(inner, path+"."+name)
			} else {
				missing = append(missing, path+"."+name)
			}
		}
		return out
	}
	defaults := collect(root["properties"].(map[string]any)["defaults"].(map[string]any)["properties"].(map[string]any), "defaults")
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("keys without a default in spec.schema.json: %s", strings.Join(missing, ", "))
	}
	doc, err := json.Marshal(map[string]any{
		"version": 1, "name": "defaults", "defaults": defaults, "benchmarks": []any{map[string]any{"include": "."}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("defaults.json", doc) // JSON is YAML
	if err != nil {
		t.Fatalf("the schema's defaults do not make a valid spec: %v\n%s", err, doc)
	}
	want := DefaultSettings()
	want.Diagnostics = DefaultDiagSettings()
	if diff := cmp.Diff(want, s.Defaults); diff != "" {
		t.Errorf("schema defaults differ from the built-in ones (-built-in +schema):\n%s\n%s", diff, doc)
	}
}
