package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/schemas"
)

// schemaField is one property of a JSON Schema: its path, such as
// "runs[].primary_metric.score" ("[]" for array items, "{}" for the values
// of a map), and whether it has a description.
type schemaField struct {
	Path        string
	Documented  bool
	Description string
}

// schemaFields walks a draft-07 schema, following local $refs and
// oneOf/anyOf alternatives, and returns every property, sorted by path.
func schemaFields(t *testing.T, doc []byte) []schemaField {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(doc, &root); err != nil {
		t.Fatal(err)
	}
	resolve := func(node map[string]any) map[string]any {
		for depth := 0; depth < 10; depth++ {
			ref, ok := node["$ref"].(string)
			if !ok {
				return node
			}
			node = root
			for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
				node, _ = node[part].(map[string]any)
			}
		}
		t.Fatalf("$ref loop")
		return nil
	}
	seen := map[string]schemaField{}
	var walk func(path string, node map[string]any)
	walk = func(path string, node map[string]any) {
		node = resolve(node)
		if node == nil {
			return
		}
		for _, key := range []string{"oneOf", "anyOf", "allOf"} {
			alts, _ := node[key].([]any)
			for _, alt := range alts {
				if m, ok := alt.(map[string]any); ok {
					walk(path, m)
				}
			}
		}
		props, _ := node["properties"].(map[string]any)
		for name, p := range props {
			child := strings.TrimPrefix(path+"."+name, ".")
			pm, _ := p.(map[string]any)
			desc, _ := pm["description"].(string)
			if desc == "" {
				desc, _ = resolve(pm)["description"].(string)
			}
			seen[child] = schemaField{Path: child, Documented: desc != "", Description: desc}
			walk(child, pm)
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(path+"[]", items)
		}
		if ap, ok := node["additionalProperties"].(map[string]any); ok {
			walk(path+"{}", ap)
		}
	}
	walk("", root)
	fields := make([]schemaField, 0, len(seen))
	for _, f := range seen {
		fields = append(fields, f)
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Path < fields[j].Path })
	return fields
}

// TestSchemaFieldsDocumented checks that every property of the result
// schema has a description.
func TestSchemaFieldsDocumented(t *testing.T) {
	for _, f := range schemaFields(t, schemas.Result) {
		if !f.Documented {
			t.Errorf("result.schema.json: %s has no description", f.Path)
		}
	}
}

// TestSchemaFieldsNeverDisappear holds the JSON report to its promise of
// additive changes only: every property path ever documented in the
// result schema is listed in testdata/schema_fields.golden, and a path
// missing from the schema fails. -update adds new paths but never removes
// one; removing a field takes a schema_version bump and a deliberate edit
// of the list.
func TestSchemaFieldsNeverDisappear(t *testing.T) {
	path := filepath.Join("testdata", "schema_fields.golden")
	current := map[string]bool{}
	for _, f := range schemaFields(t, schemas.Result) {
		current[f.Path] = true
	}
	data, err := os.ReadFile(path)
	if err != nil && !*update {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			listed[line] = true
		}
	}
	for p := range listed {
		if !current[p] {
			t.Errorf("result.schema.json: field %s disappeared; fields may only be added (schema_version %d)", p, SchemaVersion)
		}
	}
	var added []string
	for p := range current {
		if !listed[p] {
			added = append(added, p)
		}
	}
	sort.Strings(added)
	if len(added) == 0 {
		return
	}
	if !*update {
		t.Fatalf("new fields in result.schema.json, not yet in %s (run go test -update):\n%s", path, strings.Join(added, "\n"))
	}
	all := added
	for p := range listed {
		all = append(all, p)
	}
	sort.Strings(all)
	out := "# Every property path of schemas/result.schema.json, past and present.\n" +
		"# go test -update adds new ones; a path is never removed (see TestSchemaFieldsNeverDisappear).\n" +
		strings.Join(all, "\n") + "\n"
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}
