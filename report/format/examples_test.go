package format_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"golang.org/x/perf/benchfmt"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/benchspec/benchspec/schemas"
)

// tinySpec is a spec for the suite binary bin that measures each of its
// benchmarks once, as briefly as still exercises every part of the
// report: one fork, the first value of each parameter, the modes taken in
// turn so that a suite of four benchmarks or more covers all four.
func tinySpec(t *testing.T, bin, name string) string {
	t.Helper()
	out, err := exec.Command(bin, "list").Output()
	if err != nil {
		t.Fatalf("%s list: %v", name, err)
	}
	modes := []string{"avgt", "thrpt", "sample", "ss"}
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nname: %s\ndefaults:\n  forks: 1\n  warmup: {iterations: 1, time: 5ms}\n"+
		"  measurement: {iterations: 2, time: 5ms}\n  timeout: 1m\nbenchmarks:\n", name)
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, rest, _ := strings.Cut(line, "\t")
		fmt.Fprintf(&b, "  - include: %q\n    modes: [%s]\n", "^"+regexp.QuoteMeta(name)+"$", modes[i%len(modes)])
		var params []string
		for _, col := range strings.Split(rest, "\t") {
			if strings.HasPrefix(col, "group: ") {
				continue // a group's members, each on one thread here
			}
			for _, p := range strings.Fields(col) {
				k, values, _ := strings.Cut(p, "=")
				first, _, _ := strings.Cut(values, ",")
				params = append(params, fmt.Sprintf("%q: [%q]", k, first))
			}
		}
		if len(params) > 0 {
			fmt.Fprintf(&b, "    params: {%s}\n", strings.Join(params, ", "))
		}
	}
	return b.String()
}

// TestExampleSuitesValidate builds every example suite, runs all its
// benchmarks in every mode with tiny settings through the real CLI and
// forks, and checks the JSON report against schemas/result.schema.json,
// the JMH JSON against testdata/jmh.schema.json, and that benchfmt reads
// the Go benchmark format without error.
func TestExampleSuitesValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example suites")
	}
	examples, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "main.go"))
	if err != nil || len(examples) == 0 {
		t.Fatalf("no example suites: %v", err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "../../examples/...")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ../../examples/...: %v\n%s", err, out)
	}
	result := gojsonschema.NewBytesLoader(schemas.Result)
	jmhSchema, err := os.ReadFile(filepath.Join("testdata", "jmh.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, main := range examples {
		name := filepath.Base(filepath.Dir(main))
		if name == "faultsuite" {
			continue // its benchmarks fail on purpose; its own tests run it
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			specPath := filepath.Join(t.TempDir(), name+".yaml")
			if err := os.WriteFile(specPath, []byte(tinySpec(t, filepath.Join(bin, name), name)), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(filepath.Join(bin, name), "run", specPath, "--format", "json", "--quiet")
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s run: %v\n%s", name, err, stderr.String())
			}
			validate(t, "result.schema.json", result, stdout.Bytes())
			rep, err := report.Read(bytes.NewReader(stdout.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Runs) == 0 || !rep.Complete {
				t.Errorf("%d runs, complete %v; want every benchmark, complete", len(rep.Runs), rep.Complete)
			}
			validate(t, "jmh.schema.json", gojsonschema.NewBytesLoader(jmhSchema), renderTo(t, "jmh", rep))
			r := benchfmt.NewReader(bytes.NewReader(renderTo(t, "gobench", rep)), name+".txt")
			n := 0
			for r.Scan() {
				if e, ok := r.Result().(*benchfmt.SyntaxError); ok {
					t.Errorf("gobench: %v", e)
				}
				n++
			}
			if r.Err() != nil || n == 0 {
				t.Errorf("gobench: %d records, %v", n, r.Err())
			}
		})
	}
}

func validate(t *testing.T, name string, schema gojsonschema.JSONLoader, doc []byte) {
	t.Helper()
	res, err := gojsonschema.Validate(schema, gojsonschema.NewBytesLoader(doc))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, e := range res.Errors() {
		t.Errorf("%s: %s", name, e)
	}
}

func renderTo(t *testing.T, name string, rep *report.Report) []byte {
	t.Helper()
	r, err := format.Find[format.Renderer](format.Builtin(), name)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
