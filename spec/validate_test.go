package spec

import (
	"strings"
	"testing"
)

// TestSchemaErrorsAtOddKeys checks that a schema error about the value of
// a key holding '/', '~', '.' or NUL, which gojsonschema names in a
// dotted context, is placed at that value and names its key.
func TestSchemaErrorsAtOddKeys(t *testing.T) {
	src := "version: 1\nname: keys\nbenchmarks:\n  - include: a\n    env:\n" +
		"      a/b: 1\n" +
		"      x.y: 2\n" +
		"      \"~0\": 3\n" +
		"      \"p\\0q\": 4\n" +
		"      \"p\": 5\n"
	_, err := Parse("k.yaml", []byte(src))
	var got []string
	for _, e := range Errors(err) {
		if strings.Contains(e.Msg, "expected string") {
			got = append(got, e.Error())
		}
	}
	want := []string{
		`k.yaml:6:12: benchmarks[0].env["a/b"]: expected string, got integer 1 (quote it: "1")`,
		`k.yaml:7:12: benchmarks[0].env["x.y"]: expected string, got integer 2 (quote it: "2")`,
		`k.yaml:8:13: benchmarks[0].env["~0"]: expected string, got integer 3 (quote it: "3")`,
		`k.yaml:9:15: benchmarks[0].env["p\x00q"]: expected string, got integer 4 (quote it: "4")`,
		`k.yaml:10:12: benchmarks[0].env.p: expected string, got integer 5 (quote it: "5")`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s\n(all errors: %v)", strings.Join(got, "\n"), strings.Join(want, "\n"), err)
	}
}
