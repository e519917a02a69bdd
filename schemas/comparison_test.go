package schemas_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/explain"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/schemas"
	"github.com/benchspec/benchspec/spec"
)

// The JSON of compare and ab is a promise to scripts as the report's is:
// these tests validate real output against comparison.schema.json and
// ab.schema.json, and hold the schema to compare.Result's fields both
// ways, so that a field added to the Go types without the schema fails
// here.

// compileSchema compiles doc with the schemas it refers to loaded by
// their $id (ab's refer to result's and comparison's).
func compileSchema(t *testing.T, doc []byte) *gojsonschema.Schema {
	t.Helper()
	sl := gojsonschema.NewSchemaLoader()
	sl.Draft = gojsonschema.Draft7
	if bytes.Equal(doc, schemas.AB) {
		if err := sl.AddSchemas(gojsonschema.NewBytesLoader(schemas.Result), gojsonschema.NewBytesLoader(schemas.Comparison)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := sl.Compile(gojsonschema.NewBytesLoader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// problems are the schema's objections to doc (none when it is valid).
func problems(t *testing.T, s *gojsonschema.Schema, doc []byte) []string {
	t.Helper()
	res, err := s.Validate(gojsonschema.NewBytesLoader(doc))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var out []string
	for _, e := range res.Errors() {
		out = append(out, e.String())
	}
	return out
}

// TestComparisonGoldensMatchSchemas validates the JSON goldens of
// report/format, written by format.JSON from compare's fixtures.
func TestComparisonGoldensMatchSchemas(t *testing.T) {
	for _, tc := range []struct {
		golden string
		schema []byte
	}{
		{"comparison.json.golden", schemas.Comparison},
		{"comparison5.json.golden", schemas.Comparison},
		{"ab.json.golden", schemas.AB},
	} {
		data, err := os.ReadFile(filepath.Join("..", "report", "format", "testdata", tc.golden))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems(t, compileSchema(t, tc.schema), data) {
			t.Errorf("%s: %s", tc.golden, p)
		}
	}
}

// explained is a comparison with every field the Go types write set,
// the optional ones too: a regression with its where (profiles written),
// an improvement whose where_note says why it has none, an inconclusive
// pair of ab, and runs of one side only.
func explained() *compare.Result {
	side := func(score float64) compare.Side {
		return compare.Side{Status: report.StatusOK, Score: report.Float(score), Error: 0.4, Count: 15, Forks: 3}
	}
	run := func(name string) compare.Run {
		return compare.Run{Key: name + "?size=10#avgt", Benchmark: name, Params: map[string]string{"size": "10"}, Mode: spec.ModeAverageTime, Threads: 1}
	}
	return &compare.Result{BaseName: "HEAD~1", NewName: ".", Threshold: 0.02, Alpha: 0.05,
		Test: compare.PairedTest, Correction: compare.Bonferroni, Family: 3,
		Pairs: []compare.Pair{
			{Run: run("planted.Spin"), Unit: "ns/op", Better: "lower", Base: side(100), New: side(110),
				Change: 0.1, ChangeCI: [2]report.Float{0.08, 0.12}, P: 1e-6, PRank: report.NaN(), PVerdict: report.NaN(), PAdjusted: 3e-6,
				Verdict: compare.Regression, Note: "decided by the parametric test alone", Stop: compare.StopDecided,
				Where: &explain.Explanation{
					Funcs: []explain.Func{{Name: "main.plantedExtra", BaseFlat: 0, NewFlat: 9.5, BaseCum: 0, NewCum: 9.5,
						DeltaFlat: 9.5, DeltaCum: 9.5, Share: 0.095, Z: 12.3}},
					BaseSamples: 240, NewSamples: 262, BaseTotal: 100, NewTotal: 109.8, Threshold: 3.72,
					BaseProfile: "prof/planted.Spin.base.pprof", NewProfile: "prof/planted.Spin.new.pprof"}},
			{Run: run("planted.Steady"), Unit: "ns/op", Better: "lower", Base: side(100), New: side(90),
				Change: -0.1, ChangeCI: [2]report.Float{-0.12, -0.08}, P: 1e-6, PRank: report.NaN(), PVerdict: report.NaN(), PAdjusted: 3e-6,
				RankTakesPart: true, Verdict: compare.Improvement, Stop: compare.StopBound,
				WhereNote: "the base side's forks kept no CPU profile"},
			{Run: run("planted.Noisy"), Unit: "ns/op", Better: "lower", Base: side(100), New: side(101),
				Change: report.NaN(), ChangeCI: [2]report.Float{report.NaN(), report.NaN()}, P: report.NaN(), PRank: report.NaN(), PVerdict: report.NaN(), PAdjusted: report.NaN(),
				Verdict: compare.Inconclusive, Reason: "3 complete pairs", ForksNeeded: 10, Stop: compare.StopBudget},
		},
		OnlyBase: []compare.Run{run("gone")},
		OnlyNew:  []compare.Run{{Key: "new#thrpt", Benchmark: "new", Mode: spec.ModeThroughput}},
		Notes:    []string{"a note"},
	}
}

// TestExplainedComparisonMatchesSchemas writes explained as compare and
// ab do (format.JSON) and validates both; then every object in it, given
// a key the schema does not name, must be refused: additionalProperties
// is false throughout.
func TestExplainedComparisonMatchesSchemas(t *testing.T) {
	var cmp, ab bytes.Buffer
	if err := (format.JSON{}).Comparison(&cmp, explained()); err != nil {
		t.Fatal(err)
	}
	base, err := report.ReadFile(filepath.Join("..", "report", "compare", "testdata", "base.json"))
	if err != nil {
		t.Fatal(err)
	}
	next, err := report.ReadFile(filepath.Join("..", "report", "compare", "testdata", "slow.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := (format.JSON{}).AB(&ab, explained(), base, next); err != nil {
		t.Fatal(err)
	}
	for _, p := range problems(t, compileSchema(t, schemas.Comparison), cmp.Bytes()) {
		t.Errorf("comparison: %s", p)
	}
	for _, p := range problems(t, compileSchema(t, schemas.AB), ab.Bytes()) {
		t.Errorf("ab: %s", p)
	}
	for _, key := range []string{`"where"`, `"where_note"`, `"base_profile"`, `"stop"`, `"forks_needed"`} {
		if !strings.Contains(cmp.String(), key) {
			t.Errorf("the comparison lacks %s: explained() no longer sets every field", key)
		}
	}

	s := compileSchema(t, schemas.Comparison)
	var doc any
	if err := json.Unmarshal(cmp.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range objects(doc, "") {
		var d any
		json.Unmarshal(cmp.Bytes(), &d)
		at(d, path)["unknown_field"] = 1
		data, _ := json.Marshal(d)
		if len(problems(t, s, data)) == 0 {
			t.Errorf("the schema accepts an unknown field at %q", path)
		}
		n++
	}
	if n < 10 {
		t.Errorf("tried %d objects, want every object of the comparison", n)
	}
}

// objects are the paths (dot-separated keys and indices) of every JSON
// object in v.
func objects(v any, path string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		out = append(out, path)
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, objects(v[k], path+"."+k)...)
		}
	case []any:
		for i, x := range v {
			out = append(out, objects(x, fmt.Sprintf("%s.%d", path, i))...)
		}
	}
	return out
}

// at is the object at path in v.
func at(v any, path string) map[string]any {
	for _, k := range strings.Split(path, ".")[1:] {
		switch n := v.(type) {
		case map[string]any:
			v = n[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			v = n[i]
		}
	}
	return v.(map[string]any)
}

// TestComparisonSchemaMatchesGoTypes holds comparison.schema.json to the
// JSON fields of compare.Result, recursively: the same properties at the
// same places, required exactly when the field is not omitempty.
func TestComparisonSchemaMatchesGoTypes(t *testing.T) {
	want := map[string]bool{}
	goFields(reflect.TypeFor[compare.Result](), "", want)
	var root map[string]any
	if err := json.Unmarshal(schemas.Comparison, &root); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	schemaFields(root, root, "", got)
	for _, p := range slices.Sorted(maps.Keys(want)) {
		req, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: written by compare.Result, not in comparison.schema.json", p)
		case req != want[p]:
			t.Errorf("%s: required in the schema is %v, but the Go field is %s", p, req, map[bool]string{true: "always written", false: "omitempty"}[want[p]])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: in comparison.schema.json, not written by compare.Result", p)
		}
	}
}

// goFields records the JSON fields of t below path: path.name → whether
// it is always written (no omitempty). Array elements are path[].
func goFields(t reflect.Type, path string, out map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		if t.Kind() != reflect.Pointer {
			path += "[]"
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			goFields(f.Type, path, out)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[path+"."+name] = !strings.Contains(opts, "omitempty")
		goFields(f.Type, path+"."+name, out)
	}
}

// schemaFields records the properties of node below path, following
// local $refs: path.name → whether it is required.
func schemaFields(root, node map[string]any, path string, out map[string]bool) {
	for range 10 {
		ref, _ := node["$ref"].(string)
		if ref == "" {
			break
		}
		node = root["definitions"].(map[string]any)[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
	}
	if items, ok := node["items"].(map[string]any); ok {
		schemaFields(root, items, path+"[]", out)
	}
	req, _ := node["required"].([]any)
	props, _ := node["properties"].(map[string]any)
	for name, p := range props {
		out[path+"."+name] = slices.Contains(req, any(name))
		schemaFields(root, p.(map[string]any), path+"."+name, out)
	}
}

// TestComparisonSchemaEnums ties the schema's enums to the Go constants.
func TestComparisonSchemaEnums(t *testing.T) {
	var s struct {
		Properties struct {
			Test, Correction struct{ Enum []string }
		}
		Definitions struct {
			Pair struct {
				Properties struct {
					Mode, Verdict, Stop, Better struct{ Enum []string }
				}
			}
			Run struct {
				Properties struct{ Mode struct{ Enum []string } }
			}
			Side struct {
				Properties struct{ Status struct{ Enum []string } }
			}
		}
	}
	if err := json.Unmarshal(schemas.Comparison, &s); err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, m := range spec.Modes() {
		modes = append(modes, string(m))
	}
	verdicts := []string{string(compare.Unchanged), string(compare.Improvement), string(compare.Regression), string(compare.Inconclusive), string(compare.Failed)}
	for _, tc := range []struct {
		name      string
		got, want []string
	}{
		{"test", s.Properties.Test.Enum, []string{compare.Test, compare.PairedTest}},
		{"correction", s.Properties.Correction.Enum, []string{compare.Holm, compare.NoCorrection, compare.Bonferroni}},
		{"pair mode", s.Definitions.Pair.Properties.Mode.Enum, modes},
		{"run mode", s.Definitions.Run.Properties.Mode.Enum, modes},
		{"verdict", s.Definitions.Pair.Properties.Verdict.Enum, verdicts},
		{"stop", s.Definitions.Pair.Properties.Stop.Enum, []string{compare.StopDecided, compare.StopBudget, compare.StopBound}},
		{"better", s.Definitions.Pair.Properties.Better.Enum, []string{compare.Better("ops/s"), compare.Better("ns/op")}},
		{"status", s.Definitions.Side.Properties.Status.Enum, []string{report.StatusOK, report.StatusFailed, report.StatusSkipped}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s: the schema's enum is %q, the Go constants are %q", tc.name, tc.got, tc.want)
		}
	}
}
