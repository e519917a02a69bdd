package benchspec_test

// Tests that the README and docs/ say what is true: the set-up commands
// name files that exist, links lead somewhere, the specs and the CI
// workflow they show are valid, and the recipe for using benchspec from
// another module works on a fresh module.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"

	"github.com/benchspec/benchspec/spec"
)

// fencedBlocks returns the blocks of a Markdown text fenced as ```lang,
// with the 1-based line of each block's first line.
func fencedBlocks(md, lang string) (blocks []string, lines []int) {
	all := strings.Split(md, "\n")
	for i := 0; i < len(all); i++ {
		if strings.TrimSpace(all[i]) != "```"+lang {
			continue
		}
		start := i + 2
		var code []string
		for i++; i < len(all) && strings.TrimSpace(all[i]) != "```"; i++ {
			code = append(code, all[i])
		}
		blocks = append(blocks, strings.Join(code, "\n")+"\n")
		lines = append(lines, start)
	}
	return blocks, lines
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReadmeSetUpCommands: the README's two set-up commands, exactly,
// and the spec the main job runs.
func TestReadmeSetUpCommands(t *testing.T) {
	readme := readDoc(t, "README.md")
	for _, cmd := range []string{
		"go run ./examples/seeds run examples/seeds/seeds.yaml",
		"go vet ./... && go test ./...",
	} {
		if !strings.Contains(readme, "\n"+cmd+" ") && !strings.Contains(readme, "\n"+cmd+"\n") {
			t.Errorf("README.md does not give the set-up command %q on a line of its own", cmd)
		}
	}
	if _, err := os.Stat(filepath.Join("examples", "seeds", "seeds.yaml")); err != nil {
		t.Error(err)
	}
	if n := strings.Count(readme, "\n"); n > 400 {
		t.Errorf("README.md has %d lines; keep it a guide of at most 400 and move detail to docs/", n)
	}
}

// slug is the anchor GitHub gives a heading.
func slug(heading string) string {
	s := strings.ToLower(strings.TrimSpace(heading))
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Registered benchmarks in benchstat, beside their `go test` twins": "registered-benchmarks-in-benchstat-beside-their-go-test-twins",
		"Batches, order and time slots":                                    "batches-order-and-time-slots",
		"Why every fork is a fresh process":                                "why-every-fork-is-a-fresh-process",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDocLinks: every relative link of README.md and docs/*.md names a
// file of the repository, and every #anchor a heading of that file.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile(`(?m)^#+ (.+)$`)
	anchors := func(path string) map[string]bool {
		m := map[string]bool{}
		for _, h := range heading.FindAllStringSubmatch(readDoc(t, path), -1) {
			m[slug(h[1])] = true
		}
		return m
	}
	for _, file := range docFiles(t) {
		md := readDoc(t, file)
		// Leave out fenced code: a shell line may hold "](".
		md = regexp.MustCompile("(?s)```.*?```").ReplaceAllString(md, "")
		for _, m := range link.FindAllStringSubmatch(md, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			if path == "" {
				path = file
			} else {
				path = filepath.Join(filepath.Dir(file), path)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: %v", file, target, err)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(path)[anchor] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", file, target, path, anchor)
			}
		}
	}
}

// TestDocSpecsParse: every whole spec the README and docs/ show (a
// ```yaml block with a version and benchmarks) parses and validates.
func TestDocSpecsParse(t *testing.T) {
	n := 0
	for _, file := range docFiles(t) {
		blocks, lines := fencedBlocks(readDoc(t, file), "yaml")
		for i, b := range blocks {
			if !strings.Contains(b, "version: 1") || !strings.Contains(b, "benchmarks:") {
				continue
			}
			n++
			if _, err := spec.Parse(file, []byte(b)); err != nil {
				t.Errorf("%s:%d: the spec does not parse: %v", file, lines[i], err)
			}
		}
	}
	if n < 3 {
		t.Errorf("found %d specs in README.md and docs/, want the three or more they show", n)
	}
}

// TestReadmeWorkflowValidates: the README's CI job is a GitHub Actions
// workflow of the subset examples/nightly checks, gating on compare.
func TestReadmeWorkflowValidates(t *testing.T) {
	blocks, lines := fencedBlocks(readDoc(t, "README.md"), "yaml")
	schema, err := filepath.Abs(filepath.Join("examples", "nightly", "testdata", "workflow.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i, b := range blocks {
		if !strings.Contains(b, "jobs:") {
			continue
		}
		found = true
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(b), &doc); err != nil {
			t.Fatalf("README.md:%d: %v", lines[i], err)
		}
		res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+filepath.ToSlash(schema)), gojsonschema.NewGoLoader(doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Errors() {
			t.Errorf("README.md:%d: workflow: %s", lines[i], e)
		}
		for _, want := range []string{"benchspec ab --base", "--suite", "pipefail"} {
			if !strings.Contains(b, want) {
				t.Errorf("README.md:%d: the workflow does not run %q", lines[i], want)
			}
		}
	}
	if !found {
		t.Error("README.md shows no CI workflow")
	}
}

// TestUseFromAnotherModule follows the README's workspace recipe in a
// fresh module beside a "clone" (a link to this repository): go work
// init, the tool line, the parent through go tool, and a suite made of
// the README's own main.go and spec, listed and validated with go run.
// The go command keeps its own GOPROXY: on a fresh machine the
// workspace needs go.mod files (gojsonschema's testify) that no build
// of this module fetched, as it would for a user.
func TestUseFromAnotherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module and runs the go command: runs without -short")
	}
	readme := readDoc(t, "README.md")
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(root, filepath.Join(dir, "benchspec")); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "yourmodule")
	if err := os.MkdirAll(filepath.Join(mod, "bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	goBlock := goBlocks(readme)
	yamlBlocks, _ := fencedBlocks(readme, "yaml")
	var mainGo, nightly string
	for _, b := range goBlock {
		if strings.Contains(b.Code, "benchspec.Main()") && strings.Contains(b.Code, "json.Marshal") {
			mainGo = b.Code
		}
	}
	for _, b := range yamlBlocks {
		if strings.Contains(b, "name: nightly") && strings.Contains(b, `'^json\.'`) {
			nightly = b
		}
	}
	if mainGo == "" || nightly == "" {
		t.Fatal("README.md lacks the json.Marshal suite or its nightly.yaml")
	}
	for name, data := range map[string]string{"bench/main.go": mainGo, "bench/nightly.yaml": nightly} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=", "GOWORK=", "BENCHSPEC_PARENT=")
	run := func(line string, want string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("%s: output lacks %q:\n%s", line, want, out)
		}
	}
	run("go mod init example.com/yourmodule", "")
	for _, line := range []string{
		"go work init . ../benchspec",
		"go mod edit -tool=github.com/benchspec/benchspec/cmd/benchspec",
		"go tool benchspec help",
		"go run ./bench list",
		"go run ./bench validate bench/nightly.yaml",
	} {
		if !strings.Contains(readme, line) {
			t.Errorf("README.md no longer gives %q: update this test with the recipe", line)
		}
	}
	run("go work init . ../benchspec", "")
	run("go mod edit -tool=github.com/benchspec/benchspec/cmd/benchspec", "")
	run("go tool benchspec help", "Usage")
	run("go run ./bench list", "json.Marshal")
	run("go run ./bench validate bench/nightly.yaml", "0 errors")
}
