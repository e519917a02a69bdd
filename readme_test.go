package benchspec_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
	"github.com/google/go-cmp/cmp"
)

// goBlock is one ```go block of a Markdown file.
type goBlock struct {
	File     string // the Markdown file, relative to the repository's root
	Line     int    // the 1-based line of the block's first line of code
	Code     string // the block's text
	Fragment bool   // marked <!-- fragment --> on the line before the fence
}

// fragmentMark, alone on the line before a ```go fence, marks a block that
// is not a whole file: declarations (with their imports, if any) that
// the test wraps in package main.
const fragmentMark = "<!-- fragment -->"

// goBlocks returns the ```go blocks of a Markdown text.
func goBlocks(md string) []goBlock {
	var blocks []goBlock
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		b := goBlock{Line: i + 2, Fragment: i > 0 && strings.TrimSpace(lines[i-1]) == fragmentMark}
		var code []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			code = append(code, lines[i])
		}
		b.Code = strings.Join(code, "\n") + "\n"
		blocks = append(blocks, b)
	}
	return blocks
}

// source is the file a block compiles as: a //line directive makes the
// compiler report positions in the Markdown file, and a fragment is
// wrapped in package main (with a main function unless it has one).
func (b goBlock) source() string {
	file := b.File
	if file == "" {
		file = "README.md"
	}
	code := fmt.Sprintf("//line %s:%d:1\n%s", file, b.Line, b.Code)
	if !b.Fragment {
		return code
	}
	if !regexp.MustCompile(`(?m)^func main\(\)`).MatchString(b.Code) {
		code += "\nfunc main() {}\n"
	}
	return "package main\n\n" + code
}

func TestGoBlocks(t *testing.T) {
	md := "# T\n\n```go\npackage main\n\nfunc main() {}\n```\n\ntext\n\n" + fragmentMark + "\n```go\nvar x = 1\n```\n\n```yaml\na: 1\n```\n"
	want := []goBlock{
		{Line: 4, Code: "package main\n\nfunc main() {}\n"},
		{Line: 13, Code: "var x = 1\n", Fragment: true},
	}
	got := goBlocks(md)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("blocks (-want +got):\n%s", diff)
	}
	if src := got[1].source(); src != "package main\n\n//line README.md:13:1\nvar x = 1\n\nfunc main() {}\n" {
		t.Errorf("fragment source:\n%s", src)
	}
}

// docFiles are the user documentation: README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	return append([]string{"README.md"}, docs...)
}

// TestReadmeGoBlocksCompile builds every ```go block of README.md and
// docs/*.md as a main package of a module of its own that requires this
// one through a replace directive, as a user's module would (see the
// README's "Use it in your module"). Errors are reported at their
// Markdown lines.
func TestReadmeGoBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build: runs without -short")
	}
	var blocks []goBlock
	for _, file := range docFiles(t) {
		md, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range goBlocks(string(md)) {
			b.File = filepath.ToSlash(file)
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		t.Fatal("README.md and docs/ have no ```go blocks")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", fmt.Sprintf("module example.com/readme\n\ngo %s\n\nrequire github.com/benchspec/benchspec v0.0.0\n\nreplace github.com/benchspec/benchspec => %s\n", goVersion[1], root))
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sum))
	for i, b := range blocks {
		write(fmt.Sprintf("block%d/main.go", i), b.source())
	}
	// -mod=mod lets go complete the module's requirements from this
	// module's go.mod, fetching through the go command's own GOPROXY
	// what a fresh module cache lacks.
	cmd := exec.Command("go", "build", "-mod=mod", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the Go blocks of README.md and docs/ (%d) do not build: %v\n%s", len(blocks), err, out)
	}
}

// TestReadmeSampleIsWhatTheToolPrints: the table under "Reading the
// table" is what run --quiet printed for the batch whose report is kept
// in examples/seeds/testdata: every line of the README's block is a line
// of that report rendered by the text format today, in the same order
// (rows and footnotes may be left out, none may be made up). A change
// to the table's look fails here until the README shows it.
func TestReadmeSampleIsWhatTheToolPrints(t *testing.T) {
	md := readDoc(t, "README.md")
	sec := md[strings.Index(md, "## Reading the table"):]
	blocks, _ := fencedBlocks(sec, "")
	if len(blocks) == 0 {
		t.Fatal("no sample block under \"## Reading the table\"")
	}
	f, err := os.Open(filepath.Join("examples", "seeds", "testdata", "readme-sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := report.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := (format.Text{}).Render(&out, rep); err != nil {
		t.Fatal(err)
	}
	printed := strings.Split(out.String(), "\n")
	next := 0
	for _, line := range strings.Split(strings.TrimRight(blocks[0], "\n"), "\n") {
		i := slices.Index(printed[next:], line)
		if i < 0 {
			t.Fatalf("README sample line %q is not printed (after line %d) by the text format for the saved report:\n%s", line, next, out.String())
		}
		next += i + 1
	}
}
