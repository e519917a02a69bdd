package spec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/internal/jsonschema"
)

// FuzzSchemaAgreesWithGojsonschema checks internal/jsonschema, the small
// validator the spec package links, against gojsonschema (a general
// draft-07 validator, linked only by tests): on any document, both must
// find the same violations (kind and place), apart from what each says
// inside a failed oneOf, which validate replaces by checkAlternatives.
// Seeds: the spec corpus and one document per keyword the schema uses;
// fuzz with
//
//	go test -fuzz=FuzzSchemaAgreesWithGojsonschema -fuzztime=3m ./spec
func FuzzSchemaAgreesWithGojsonschema(f *testing.F) {
	for _, glob := range []string{"testdata/good/*.yaml", "testdata/bad/*.yaml", "testdata/bad-plan/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	const head = "version: 1\nname: n\nbenchmarks:\n  - include: a\n"
	for _, entry := range []string{
		"", "    bogus: 1\n", "    modes: [avgt, avgt, avgt]\n", "    modes: [nope]\n", "    modes: []\n",
		"    threads: 0\n", "    threads: 4097\n", "    threads: max\n", "    threads: [1, 2]\n", "    threads: [1, 1]\n",
		"    threads: [0]\n", "    threads: 2.5\n", "    threads: 2.0\n", "    forks: -1\n", "    forks: 1.5\n",
		"    exclude: ''\n", "    exclude: 3\n", "    params: {a: [1, x, true]}\n", "    params: {a: []}\n", "    params: {a: [[1]]}\n",
		"    params: {a: {b: 1}}\n", "    params: {a: null}\n", "    env: {A: 1}\n", "    env: {A: x}\n",
		"    measurement: {time: 1x}\n", "    measurement: {time: 10ms, iterations: 0}\n", "    warmup: {time: -1s}\n",
		"    precision: 5 %\n", "    precision: 5\n", "    precision: {x: 1}\n", "    diagnostics: [gc, gc]\n", "    diagnostics: x\n",
		"    include: ''\n", "    include: null\n", "  - {}\n", "  - 3\n",
	} {
		f.Add([]byte(head + entry))
	}
	for _, doc := range []string{
		"", "3", "[]", "version: 2\nname: n\nbenchmarks: [{include: a}]\n", "version: '1'\nname: n\nbenchmarks: [{include: a}]\n",
		"version: 1.0\nname: n\nbenchmarks: [{include: a}]\n", "version: 1\nname: ...\nbenchmarks: [{include: a}]\n",
		"version: 1\nname: 'a/b'\nbenchmarks: [{include: a}]\n", "version: 1\nname: n\nbenchmarks: []\n", "name: n\n",
		"version: 1\nname: n\nbenchmarks: [{include: a}]\ndefaults: {forks: 0, threads: x}\n",
		"version: 1\nname: n\nbenchmarks: [{include: a}]\nextra: 1\n", "version: 1\nname: n\nbenchmarks: {include: a}\n",
	} {
		f.Add([]byte(doc))
	}
	s, err := loadSchema()
	if err != nil {
		f.Fatal(err)
	}
	oracle, err := gojsonschema.NewSchema(gojsonschema.NewGoLoader(s.root))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := newDocument("fuzz.yaml")
		if !d.load(data) {
			return
		}
		ours := s.compiled.Validate(d.value)
		res, err := oracle.Validate(gojsonschema.NewGoLoader(d.value))
		if err != nil {
			t.Fatalf("gojsonschema: %v", err)
		}
		if len(ours) == 0 != res.Valid() {
			t.Fatalf("valid: ours %v, gojsonschema %v\nours: %v\ngojsonschema: %v", len(ours) == 0, res.Valid(), ours, res.Errors())
		}
		if diff := compareViolations(ours, res.Errors()); diff != "" {
			t.Fatalf("%s\nours: %v\ngojsonschema: %v", diff, ours, res.Errors())
		}
	})
}

// compareViolations lists the violations ("kind at pointer") one side
// finds and the other does not, outside failed alternatives.
func compareViolations(ours []jsonschema.Error, theirs []gojsonschema.ResultError) string {
	kinds := map[string]jsonschema.Kind{
		"invalid_type": jsonschema.Type, "additional_property_not_allowed": jsonschema.AdditionalProperty,
		"required": jsonschema.Required, "enum": jsonschema.Enum, "const": jsonschema.Const,
		"number_gte": jsonschema.Minimum, "number_gt": jsonschema.Minimum, "number_lte": jsonschema.Maximum,
		"number_lt": jsonschema.Maximum, "array_min_items": jsonschema.MinItems, "string_gte": jsonschema.MinLength,
		"unique": jsonschema.Unique, "pattern": jsonschema.Pattern, "number_one_of": jsonschema.OneOf,
		"number_any_of": jsonschema.AnyOf,
	}
	var alts []string
	for _, e := range ours {
		if e.Kind == jsonschema.OneOf || e.Kind == jsonschema.AnyOf {
			alts = append(alts, e.Ptr)
		}
	}
	inAlt := func(k jsonschema.Kind, ptr string) bool {
		if k == jsonschema.OneOf || k == jsonschema.AnyOf {
			return false
		}
		return slices.ContainsFunc(alts, func(a string) bool { return ptr == a || strings.HasPrefix(ptr, a+"/") })
	}
	set := func(add func(func(k jsonschema.Kind, ptr, detail string))) map[string]bool {
		m := map[string]bool{}
		add(func(k jsonschema.Kind, ptr, detail string) {
			if !inAlt(k, ptr) {
				m[strings.Join([]string{jsonschema.Error{Kind: k}.Description(), ptr, detail}, " ")] = true
			}
		})
		return m
	}
	a := set(func(add func(jsonschema.Kind, string, string)) {
		for _, e := range ours {
			add(e.Kind, e.Ptr, e.Property)
		}
	})
	b := set(func(add func(jsonschema.Kind, string, string)) {
		for _, e := range theirs {
			k, ok := kinds[e.Type()]
			if !ok {
				k = -1
			}
			p, _ := e.Details()["property"].(string)
			add(k, gojsonschemaPointer(e.Context()), p)
		}
	})
	var diff []string
	for v := range a {
		if !b[v] {
			diff = append(diff, "only ours: "+v)
		}
	}
	for v := range b {
		if !a[v] {
			diff = append(diff, "only gojsonschema: "+v)
		}
	}
	slices.Sort(diff)
	return strings.Join(diff, "\n")
}

// gojsonschemaPointer converts gojsonschema's context
// ("(root).benchmarks.0") to a JSON pointer ("/benchmarks/0"); a NUL
// separator keeps keys that contain dots intact.
func gojsonschemaPointer(c *gojsonschema.JsonContext) string {
	toks := strings.Split(c.String("\x00"), "\x00")
	var b strings.Builder
	for _, t := range toks[1:] {
		b.WriteString("/" + escapeToken(t))
	}
	return b.String()
}
