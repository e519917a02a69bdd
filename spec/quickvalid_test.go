package spec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/schemas"
)

// quickValid relies on the schema checking each entry on its own and
// asking no more of include and exclude than a non-empty string; a schema
// change that breaks this must fail here, not let invalid specs through.
func TestQuickValidAssumptions(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(schemas.Spec, &root); err != nil {
		t.Fatal(err)
	}
	strip := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			if k != "description" && k != "title" {
				out[k] = v
			}
		}
		return out
	}
	benchmarks := strip(root["properties"].(map[string]any)["benchmarks"].(map[string]any))
	want := map[string]any{"type": "array", "minItems": 1.0, "items": map[string]any{"$ref": "#/definitions/entry"}}
	if diff := cmp.Diff(want, benchmarks); diff != "" {
		t.Errorf("benchmarks (-assumed +schema):\n%s", diff)
	}
	entry := root["definitions"].(map[string]any)["entry"].(map[string]any)
	for k := range entry {
		switch k {
		case "description", "title", "type", "additionalProperties", "required", "properties":
		default:
			t.Errorf("entry has %q, which may relate its keys", k)
		}
	}
	for _, key := range []string{"include", "exclude"} {
		got := strip(entry["properties"].(map[string]any)[key].(map[string]any))
		if diff := cmp.Diff(map[string]any{"type": "string", "minLength": 1.0}, got); diff != "" {
			t.Errorf("%s (-assumed +schema):\n%s", key, diff)
		}
	}
}

// Where quickValid vouches for a spec, the full validation finds nothing:
// every spec of the corpus, and variants of many entries that differ in
// one value.
func TestQuickValidAgreesWithTheSchema(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	cases := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases[f] = data
	}
	many := func(odd string) []byte {
		var b strings.Builder
		b.WriteString("version: 1\nname: many\nbenchmarks:\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  - include: '^b%d$'\n    forks: 2\n", i)
			if i == 13 {
				b.WriteString(odd)
			}
		}
		return []byte(b.String())
	}
	cases["many entries"] = many("")
	for _, odd := range []string{"    threads: -1\n", "    modes: [avgt, avgt]\n", "    exclude: ''\n", "    exclude: 3\n", "    include2: x\n", "    params: {size: []}\n"} {
		cases["many entries, one with "+strings.TrimSpace(odd)] = many(odd)
	}
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	vouched := 0
	for name, data := range cases {
		d := newDocument(name)
		if !d.load(data) {
			continue
		}
		if !d.quickValid(s) {
			continue
		}
		vouched++
		full := newDocument(name)
		full.load(data)
		if errs := s.compiled.Validate(full.value); len(errs) != 0 {
			t.Errorf("%s: quickValid vouched for it; the schema says %v", name, errs)
		}
	}
	if vouched < 2 {
		t.Errorf("quickValid vouched for %d specs; the test proves nothing", vouched)
	}
	for _, odd := range []string{"threads: -1", "exclude: ''", "include2: x"} {
		d := newDocument("x")
		d.load(cases["many entries, one with "+odd])
		if d.quickValid(s) {
			t.Errorf("quickValid vouched for 20 entries, one with %s", odd)
		}
	}
}
