// The nightly example is configuration, not code: specs for the seeds
// suite, a Kubernetes Indexed Job with its merge Job, and a GitHub
// Actions workflow. These tests check that each is valid for the system
// that reads it — the manifests and the workflow against JSON Schemas of
// the subset they use (testdata/), the specs against the seeds suite —
// and that they agree with one another: as many shards as the Job has
// completions and the matrix has entries, the results where the merge
// looks for them.
package nightly_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"
)

// root is the repository's root, where the workflow's paths start.
const root = "../.."

// shards is the number of parts every file splits the plan into.
const shards = 4

// documents reads the YAML documents of a file as plain values.
func documents(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var docs []map[string]any
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		docs = append(docs, doc)
	}
}

// validate checks doc against the JSON Schema in testdata/schema.
func validate(t *testing.T, schema, name string, doc any) {
	t.Helper()
	res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+abs(t, filepath.Join("testdata", schema))), gojsonschema.NewGoLoader(doc))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, e := range res.Errors() {
		t.Errorf("%s: %s", name, e)
	}
}

func abs(t *testing.T, path string) string {
	p, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(p)
}

// get walks doc along keys (map keys, or list indexes as numbers).
func get(doc any, keys ...any) any {
	for _, k := range keys {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[fmt.Sprint(k)]
		case []any:
			i, ok := k.(int)
			if !ok || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}

func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// flagValue is the value after flag in args, "" when absent.
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// The schema itself must reject what it is there to catch.
func TestSchemasCatchMistakes(t *testing.T) {
	for _, tc := range []struct{ schema, doc string }{
		{"k8s.schema.json", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec: {completionsMode: Indexed, template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}"},
		{"k8s.schema.json", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec: {template: {spec: {restartPolicy: Always, containers: [{name: c, image: i}]}}}"},
		{"workflow.schema.json", "on: {workflow_dispatch: {}}\njobs: {a: {runs-on: x, steps: [{uses: actions/checkout@v4, run: ls}]}}"},
		{"workflow.schema.json", "on: {workflow_dispatch: {}}\njobs: {a: {runs_on: x, steps: [{run: ls}]}}"},
	} {
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(tc.doc), &doc); err != nil {
			t.Fatal(err)
		}
		res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+abs(t, filepath.Join("testdata", tc.schema))), gojsonschema.NewGoLoader(doc))
		if err != nil || res.Valid() {
			t.Errorf("%s accepts %q (%v)", tc.schema, tc.doc, err)
		}
	}
}

// The manifests are valid Kubernetes objects; the shards Job is an
// Indexed Job of one pod per shard whose pods run their shard into the
// shared volume, where the merge Job reads them.
func TestKubernetesManifests(t *testing.T) {
	byKind := map[string]map[string]map[string]any{}
	files, _ := filepath.Glob(filepath.Join("k8s", "*.yaml"))
	if len(files) != 3 {
		t.Fatalf("k8s/*.yaml: %v, want the claim and two Jobs", files)
	}
	for _, f := range files {
		for i, doc := range documents(t, f) {
			validate(t, "k8s.schema.json", fmt.Sprintf("%s document %d", f, i+1), doc)
			kind, name := fmt.Sprint(doc["kind"]), fmt.Sprint(get(doc, "metadata", "name"))
			if byKind[kind] == nil {
				byKind[kind] = map[string]map[string]any{}
			}
			byKind[kind][name] = doc
		}
	}
	claim := "benchspec-results"
	if byKind["PersistentVolumeClaim"][claim] == nil {
		t.Fatalf("no PersistentVolumeClaim %s", claim)
	}
	if modes := strs(get(byKind["PersistentVolumeClaim"][claim], "spec", "accessModes")); !slices.Contains(modes, "ReadWriteMany") {
		t.Errorf("the results claim is %v; pods on several nodes need ReadWriteMany", modes)
	}

	job := byKind["Job"]["benchspec-nightly"]
	spec := get(job, "spec")
	if get(spec, "completionMode") != "Indexed" || get(spec, "completions") != shards || get(spec, "parallelism") != shards {
		t.Errorf("shards Job: completionMode %v, completions %v, parallelism %v; want Indexed, %d, %d",
			get(spec, "completionMode"), get(spec, "completions"), get(spec, "parallelism"), shards, shards)
	}
	pod := get(spec, "template", "spec")
	c := get(pod, "containers", 0)
	args := strs(get(c, "args"))
	if !slices.Contains(args, "--shard-from-env") || flagValue(args, "--shards") != strconv.Itoa(shards) {
		t.Errorf("shard pods run %v; want --shard-from-env --shards %d", args, shards)
	}
	results := flagValue(args, "--results-dir")
	mounts(t, "shards Job", pod, claim, results)
	if args[0] != "run" || flagValue(args, "run") != "/specs" {
		t.Errorf("shard pods run %v; want run /specs, the specs the Dockerfile copies", args)
	}
	dockerfile, _ := os.ReadFile(filepath.Join("k8s", "Dockerfile"))
	if !strings.Contains(string(dockerfile), "COPY examples/nightly/specs /specs") {
		t.Errorf("the Dockerfile does not put the specs where the pods read them")
	}

	merge := byKind["Job"]["benchspec-nightly-merge"]
	mpod := get(merge, "spec", "template", "spec")
	mc := get(mpod, "containers", 0)
	dir := fmt.Sprint(get(mc, "workingDir"))
	mounts(t, "merge Job", mpod, claim, dir)
	script := strings.Join(strs(get(mc, "args")), "\n")
	for _, want := range []string{fmt.Sprintf("benchspec merge latest-shard-*-of-%d.json", shards), "benchspec compare baseline.json"} {
		if !strings.Contains(script, want) {
			t.Errorf("merge Job script lacks %q:\n%s", want, script)
		}
	}
	if want := filepath.Join(results, "nightly"); dir != want {
		t.Errorf("the merge Job works in %s; the shards write to %s (--results-dir/<suite>)", dir, want)
	}
}

// mounts checks that the pod mounts the claim at a directory holding
// path.
func mounts(t *testing.T, what string, pod any, claim, path string) {
	t.Helper()
	vol := ""
	for _, v := range get(pod, "volumes").([]any) {
		if get(v, "persistentVolumeClaim", "claimName") == claim {
			vol = fmt.Sprint(get(v, "name"))
		}
	}
	for _, m := range get(pod, "containers", 0, "volumeMounts").([]any) {
		at := fmt.Sprint(get(m, "mountPath"))
		if get(m, "name") == vol && (path == at || strings.HasPrefix(path, at+"/")) {
			return
		}
	}
	t.Errorf("%s: %s is not on the volume of claim %s", what, path, claim)
}

// The workflow is a valid GitHub Actions workflow: a matrix job of one
// entry per shard, and a merge job that needs it, merges the shards'
// artifacts and compares with a threshold.
func TestGitHubWorkflow(t *testing.T) {
	path := filepath.Join("github", "nightly.yml")
	docs := documents(t, path)
	if len(docs) != 1 {
		t.Fatalf("%s: %d documents", path, len(docs))
	}
	wf := docs[0]
	validate(t, "workflow.schema.json", path, wf)

	shard := get(wf, "jobs", "shard")
	var matrix []string
	for i := 1; i <= shards; i++ {
		matrix = append(matrix, strconv.Itoa(i))
	}
	if got := strs(get(shard, "strategy", "matrix", "shard")); !slices.Equal(got, matrix) {
		t.Errorf("matrix.shard = %v, want %v", got, matrix)
	}
	runs := runSteps(shard)
	want := fmt.Sprintf("--shard ${{ matrix.shard }}/%d", shards)
	if !strings.Contains(runs, want) || !strings.Contains(runs, "go build -o bin/seeds ./examples/seeds") ||
		!strings.Contains(runs, "bin/seeds run examples/nightly/specs") {
		t.Errorf("the shard job runs %q; want the seeds suite, built, on examples/nightly/specs with %q", runs, want)
	}
	// go run turns every non-zero exit into 1: a CI job must run built
	// binaries to tell a bad spec (2) or a cancelled run (130) from a
	// failed benchmark (1).
	for _, job := range []string{"shard", "merge-and-compare"} {
		if steps := runSteps(get(wf, "jobs", job)); strings.Contains(steps, "go run") {
			t.Errorf("job %s uses go run, which collapses exit statuses to 1: %q", job, steps)
		}
	}
	for _, dir := range []string{"examples/seeds", "examples/nightly/specs", "cmd/benchspec"} {
		if _, err := os.Stat(filepath.Join(root, dir)); err != nil {
			t.Errorf("the workflow uses %s: %v", dir, err)
		}
	}

	merge := get(wf, "jobs", "merge-and-compare")
	if needs := get(merge, "needs"); needs != "shard" && !slices.Contains(strs(needs), "shard") {
		t.Errorf("merge-and-compare needs %v, want the shard job", needs)
	}
	runs = runSteps(merge)
	for _, want := range []string{"benchspec merge shards/*.json --out merged.json", "benchspec compare baseline.json merged.json --threshold 5%"} {
		if !strings.Contains(runs, want) {
			t.Errorf("merge-and-compare does not run %q:\n%s", want, runs)
		}
	}
}

// runSteps is the commands of a job's run steps, one per line.
func runSteps(job any) string {
	var runs []string
	for _, s := range get(job, "steps").([]any) {
		if r, ok := get(s, "run").(string); ok {
			runs = append(runs, r)
		}
	}
	return strings.Join(runs, "\n")
}

// The specs make one plan of the seeds suite, which splits into the
// shards the Job and the workflow run, none of them empty.
func TestSpecsPlanOnSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the seeds suite")
	}
	bin := filepath.Join(t.TempDir(), "seeds")
	if out, err := exec.Command("go", "build", "-o", bin, "../seeds").CombinedOutput(); err != nil {
		t.Fatalf("go build ../seeds: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "plan", "specs", "--shards", strconv.Itoa(shards)).CombinedOutput()
	if err != nil {
		t.Fatalf("seeds plan specs: %v\n%s", err, out)
	}
	for i := 1; i <= shards; i++ {
		line := fmt.Sprintf("shard %d/%d: ", i, shards)
		if !strings.Contains(string(out), line) || strings.Contains(string(out), line+"0 runs") {
			t.Errorf("shard %d/%d is missing or empty:\n%s", i, shards, out)
		}
	}
}

// TestSpecsForksLetCompareDecide: the merge job compares the night with
// the baseline and fails on a regression; with 10 forks a side the rank
// test can confirm a verdict in a family of these runs (Holm), where
// with 3 it never reaches a level and Welch's test would decide alone.
func TestSpecsForksLetCompareDecide(t *testing.T) {
	files, err := filepath.Glob("specs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no specs: %v", err)
	}
	for _, f := range files {
		for _, doc := range documents(t, f) {
			forks, ok := get(doc, "defaults", "forks").(int)
			if !ok || forks < 10 {
				t.Errorf("%s: defaults.forks is %v; want at least 10, so that compare's rank test takes part", f, get(doc, "defaults", "forks"))
			}
			entries, _ := get(doc, "benchmarks").([]any)
			for i, b := range entries {
				if v, ok := get(b, "forks").(int); ok && v < 10 {
					t.Errorf("%s: benchmarks[%d].forks is %d; want at least 10", f, i, v)
				}
			}
		}
	}
}
