package cli

// The hostile-spec corpus is checked here and nowhere else: every file of
// spec/testdata/bad (what the spec parser rejects) and
// spec/testdata/bad-plan (what only a registry can reject), and inputs
// too large or too odd to commit, go through the validate path of both
// binaries. The goldens are the errors a user reads; -update rewrites
// them. (spec's FuzzParseSpec seeds from the same files, but checks
// properties any input must have, not these errors.)

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files of spec/testdata/bad and spec/testdata/bad-plan")

// registry is a fixed suite for the hostile-input corpus.
var registry = Registry{
	Benchmarks: []plan.Benchmark{
		{Name: "map.Insert", Params: map[string][]string{"keys": {"100"}, "kind": {"int", "string"}}},
		{Name: "sort.Ints", Params: map[string][]string{"size": {"10", "100"}}, IntParams: map[string]bool{"size": true}},
		{Name: "sort.Strings", Params: map[string][]string{"size": {"10"}}},
		{Name: "sqrt.Dropped"},
		{Name: "sqrt.Sunk"},
	},
	Executable: "/nonexistent/never-run",
}

// groupRegistry is registry with groups, for the files of
// spec/testdata/bad-plan named group*.yaml.
var groupRegistry = Registry{
	Benchmarks: append([]plan.Benchmark{
		{Name: "lock.RW", Members: []string{"write", "read"}},
		{Name: "queue.Pipe", Members: []string{"produce", "consume"}},
	}, registry.Benchmarks...),
	Executable: registry.Executable,
}

// A front door is the validate command of one binary: the suite's (with
// its registry) or the standalone benchspec's (spec files alone).
type frontDoor struct {
	name     string
	validate func(paths []string, stdout, stderr io.Writer) int
}

var (
	suiteDoor = frontDoor{"suite validate", func(paths []string, stdout, stderr io.Writer) int {
		return Suite(context.Background(), append([]string{"validate"}, paths...), registry, stdout, stderr)
	}}
	groupDoor = frontDoor{"suite validate", func(paths []string, stdout, stderr io.Writer) int {
		return Suite(context.Background(), append([]string{"validate"}, paths...), groupRegistry, stdout, stderr)
	}}
	// standaloneDoor is what `benchspec validate` runs: Validate without
	// a registry.
	standaloneDoor = frontDoor{"benchspec validate", func(paths []string, stdout, stderr io.Writer) int {
		return Validate(context.Background(), &Env{Prog: "benchspec", Cmd: "validate", Stdout: stdout, Stderr: stderr}, paths, Registry{})
	}}
)

// maxAlloc bounds the bytes a front door may allocate to reject a file,
// beyond the file's own bytes (it is read whole). The corpus's worst, the
// alias and merge bombs, cost up to about 50 MB; a bomb that escaped the
// parser's limits costs gigabytes. Unlike a wall-clock limit, the bound
// does not depend on how busy the machine is.
const maxAlloc = 128 << 20

// reject runs door on paths and checks that it exits 2, prints nothing on
// stdout and allocates within maxAlloc per file (over the files' sizes).
// It returns the error lines and the summary line.
func reject(t *testing.T, door frontDoor, paths ...string) (errs []string, summary string) {
	t.Helper()
	var size int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		size += fi.Size()
	}
	var stdout, stderr bytes.Buffer
	var code int
	alloc := allocated(func() { code = door.validate(paths, &stdout, &stderr) })
	if limit := uint64(size) + uint64(len(paths))*maxAlloc; alloc > limit {
		t.Errorf("%s allocated %d bytes, want at most %d (the files' %d bytes + %d MiB each)", door.name, alloc, limit, size, maxAlloc>>20)
	}
	if code != 2 {
		t.Errorf("%s: exit %d, want 2", door.name, code)
	}
	if stdout.Len() > 0 {
		t.Errorf("%s wrote to stdout:\n%s", door.name, stdout.String())
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileSpecs runs every file of the corpus through validate: each
// must exit 2 and print exactly its golden errors, then the summary line;
// the files of spec/testdata/bad do so through both binaries, and through
// the standalone one all at once, too.
func TestHostileSpecs(t *testing.T) {
	t.Chdir("../../../../spec")
	bad := corpus(t, "testdata/bad")
	badPlan := corpus(t, "testdata/bad-plan")
	if n := len(bad) + len(badPlan); n < 30 {
		t.Errorf("the corpus has %d files, want at least 30", n)
	}
	var all []string
	for _, path := range append(bad, badPlan...) {
		doors := []frontDoor{suiteDoor, standaloneDoor}
		switch {
		case strings.HasPrefix(path, "testdata/bad-plan/group"):
			doors = []frontDoor{groupDoor}
		case strings.HasPrefix(path, "testdata/bad-plan/"):
			doors = doors[:1] // only a registry rejects these
		}
		t.Run(path, func(t *testing.T) {
			golden := strings.TrimSuffix(path, ".yaml") + ".golden"
			if *update {
				errs, _ := reject(t, doors[0], path)
				if err := os.WriteFile(golden, []byte(strings.Join(errs, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if len(doors) == 2 {
				all = append(all, want...)
			}
			for _, door := range doors {
				errs, summary := reject(t, door, path)
				if diff := cmp.Diff(want, errs); diff != "" {
					t.Errorf("%s: errors (-golden +got):\n%s", door.name, diff)
				}
				if w := spec.Summary(1, len(want)); summary != w {
					t.Errorf("%s: summary %q, want %q", door.name, summary, w)
				}
			}
		})
	}
	if *update {
		return
	}
	errs, summary := reject(t, standaloneDoor, bad...)
	if diff := cmp.Diff(all, errs); diff != "" {
		t.Errorf("all at once: errors (-goldens +got):\n%s", diff)
	}
	if w := spec.Summary(len(bad), len(all)); summary != w {
		t.Errorf("all at once: summary %q, want %q", summary, w)
	}
}

// corpus lists the *.yaml files of dir.
func corpus(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(dir + "/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no specs in %s: %v", dir, err)
	}
	return files
}

// TestHostileGeneratedSpecs covers inputs too large or too odd for a
// testdata file. want holds the errors without the file name.
func TestHostileGeneratedSpecs(t *testing.T) {
	t.Chdir(t.TempDir())
	head := "version: 1\nname: gen\nbenchmarks:\n  - include: a\n"
	deepFlow := func(n int) string {
		return "version: 1\nname: gen\nbenchmarks: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
	}
	tests := []struct {
		file string
		data string
		want []string
	}{
		{
			file: "50MB.yaml",
			data: head + "    exclude: " + strings.Repeat("abcdefghij", 5<<20) + "\n",
			want: []string{"1:1: spec file too large (52428862 bytes; at most 1048576)"},
		},
		{
			// Under the cap: refused by the value count, not after
			// seconds and a gigabyte of YAML nodes.
			file: "flat-list.yaml",
			data: head + "    exclude: [" + strings.Repeat("1,", 100010) + "1]\n",
			want: []string{"5:200001: spec too large: more than 100000 values after expanding aliases (an alias bomb?)"},
		},
		{
			// Under the byte cap, but half a million YAML nodes of
			// two bytes each: refused before the YAML parser builds
			// them.
			file: "flow-map-of-1MiB.yaml",
			data: head + "    exclude: {" + strings.Repeat("a,", 500000) + "a}\n",
			want: []string{"5:240002: spec too large: more than 120000 YAML values by its structure (the characters , : - ? [ { * that begin them)"},
		},
		{
			file: "long-regexp.yaml",
			data: head + "    exclude: '" + strings.Repeat("a", 200000) + "'\n",
			want: []string{"5:14: benchmarks[0].exclude: regular expression too long (200000 bytes; at most 4096)"},
		},
		{
			file: "deep-flow.yaml",
			data: deepFlow(10000),
			want: []string{"3:113: nesting deeper than 100 levels"},
		},
		{
			file: "deeper-than-yaml-allows.yaml",
			data: deepFlow(10001),
			want: []string{"3:1: invalid YAML: exceeded max depth of 10000"},
		},
		{
			file: "deep-flow-mappings.yaml",
			data: head + "    diagnostics: " + strings.Repeat("{a: ", 10000) + "1" + strings.Repeat("}", 10000) + "\n",
			want: []string{"5:410: nesting deeper than 100 levels"},
		},
		{
			file: "deep-block.yaml",
			data: func() string {
				var b strings.Builder
				b.WriteString(head + "    env:\n")
				for i := range 600 {
					fmt.Fprintf(&b, "%s k%d:\n", strings.Repeat(" ", 6+i), i)
				}
				return b.String()
			}(),
			want: []string{"104:106: nesting deeper than 100 levels"},
		},
		{
			file: "aliases.yaml",
			data: head + "x: &x [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\ny: [" + strings.Repeat("*x, ", 30000) + "]\n",
			want: []string{"6:33329: spec too large: more than 100000 values after expanding aliases (an alias bomb?)"},
		},
		{
			file: "alias-cycle.yaml",
			data: head + "    diagnostics: &a {a: *a}\n",
			want: []string{"5:25: nesting deeper than 100 levels"},
		},
		{
			file: "non-utf8.yaml",
			data: head + "    exclude: \"\xff\xfe\"\n",
			want: []string{"5:15: invalid UTF-8 (byte 0xFF); spec files must be UTF-8 text"},
		},
		{
			file: "control-character.yaml",
			data: head + "    exclude: a\x01b\n",
			want: []string{"5:15: invalid YAML: control character U+0001 is not allowed"},
		},
		{
			file: "unknown-anchor.yaml",
			data: head + "    forks: *nope\n",
			want: []string{"5:12: invalid YAML: unknown anchor 'nope' referenced"},
		},
		{
			file: "only-a-null.yaml",
			data: "~\n",
			want: []string{"1:1: empty spec: expected a mapping with version, name and benchmarks"},
		},
		{
			file: "not-a-mapping.yaml",
			data: "- a\n- b\n",
			want: []string{"1:1: a spec must be a mapping with version, name and benchmarks, got list"},
		},
		{
			file: "empty-input.yaml",
			data: "",
			want: []string{"1:1: empty spec: expected a mapping with version, name and benchmarks"},
		},
		{
			file: "non-string-key.yaml",
			data: head + "    [a]: 1\n",
			want: []string{"5:5: mapping keys must be strings"},
		},
		{
			file: "huge-integer.yaml",
			data: head + "    forks: 99999999999999999999999\n",
			want: []string{"5:12: benchmarks[0].forks: must be at most 1000, got 1e+23"},
		},
		{
			file: "fractional-integer.yaml",
			data: head + "    forks: 1.5\n",
			want: []string{"5:12: benchmarks[0].forks: expected integer, got number 1.5"},
		},
		{
			file: "custom-tag.yaml",
			data: head + "    exclude: !re a+\n",
			want: []string{"5:14: benchmarks[0].exclude: unsupported YAML tag !re"},
		},
		{
			file: "second-document-syntax-error.yaml",
			data: head + "---\n[\n",
			want: []string{"7:1: invalid YAML: did not find expected node content"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if err := os.WriteFile(tt.file, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, tt.file+":"+w)
			}
			for _, door := range []frontDoor{suiteDoor, standaloneDoor} {
				errs, _ := reject(t, door, tt.file)
				if diff := cmp.Diff(want, errs); diff != "" {
					t.Errorf("%s: errors (-want +got):\n%s", door.name, diff)
				}
			}
		})
	}
}

// TestRunRefusesBadSpec: `run` exits 2 on an invalid spec and writes no
// report.
func TestRunRefusesBadSpec(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	var stdout, stderr bytes.Buffer
	code := Suite(context.Background(), []string{"run", "../../../../spec/testdata/bad/many.yaml", "--out", out}, registry, &stdout, &stderr)
	if code != 2 || !strings.HasSuffix(stderr.String(), "1 file, 15 errors\n") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a report was written")
	}
	if _, err := os.Stat(out + ".journal"); err == nil {
		t.Error("a journal was written")
	}
}

// TestHostileSpecFiles: what is not a regular file is refused before a
// byte is read, through both front doors: a FIFO nobody writes to (whose
// open would block without O_NONBLOCK), /dev/zero (endless) and a
// directory named as a file through a symlink.
func TestHostileSpecFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{fifo, fifo + ":1:1: not a regular file (a FIFO); a spec is a YAML file"},
	}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		tests = append(tests, struct{ path, want string }{"/dev/zero", "/dev/zero:1:1: not a regular file (a character device); a spec is a YAML file"})
	}
	for _, tt := range tests {
		for _, door := range []frontDoor{suiteDoor, standaloneDoor} {
			var stdout, stderr bytes.Buffer
			var code int
			alloc := allocated(func() { code = door.validate([]string{tt.path}, &stdout, &stderr) })
			want := tt.want + "\n" + spec.Summary(1, 1) + "\n"
			if code != 2 || stderr.String() != want || alloc > maxAlloc {
				t.Errorf("%s %s: exit %d, %d bytes allocated, stderr:\n%s\nwant exit 2 and:\n%s", door.name, tt.path, code, alloc, stderr.String(), want)
			}
		}
	}
}

// TestErrorsAreCapped: a file of tens of thousands of duplicate keys
// lists the first 100 errors by position and counts the rest, and the
// summary counts them all.
func TestErrorsAreCapped(t *testing.T) {
	t.Chdir(t.TempDir())
	const dups = 40000
	data := "version: 1\nname: gen\nbenchmarks:\n  - include: a\n    env: {" + strings.Repeat("K: v, ", dups) + "K: v}\n"
	if err := os.WriteFile("dups.yaml", []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, door := range []frontDoor{suiteDoor, standaloneDoor} {
		errs, summary := reject(t, door, "dups.yaml")
		if len(errs) != 101 {
			t.Fatalf("%s: %d lines, want 100 errors and a count", door.name, len(errs))
		}
		if want := `dups.yaml:5:17: duplicate key "K" (first defined at line 5, column 11)`; errs[0] != want {
			t.Errorf("%s: first error %q, want %q", door.name, errs[0], want)
		}
		if want := fmt.Sprintf("dups.yaml: … and %d more errors", dups-100); errs[100] != want {
			t.Errorf("%s: last line %q, want %q", door.name, errs[100], want)
		}
		if want := spec.Summary(1, dups); summary != want {
			t.Errorf("%s: summary %q, want %q", door.name, summary, want)
		}
	}
}

// TestPlanRefusesHugeProducts: a params product of ten million runs is
// refused at the parameter with the most values, before any run is
// allocated, by validate and plan alike.
func TestPlanRefusesHugeProducts(t *testing.T) {
	t.Chdir(t.TempDir())
	var sizes, kinds []string
	for i := range 3163 {
		sizes = append(sizes, fmt.Sprint(i))
		kinds = append(kinds, fmt.Sprintf("k%d", i))
	}
	data := "version: 1\nname: gen\nbenchmarks:\n  - include: '^map\\.Insert$'\n    params:\n      kind: [" + strings.Join(kinds, ", ") + "]\n      keys: [" + strings.Join(sizes, ", ") + "]\n"
	if err := os.WriteFile("product.yaml", []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{"product.yaml:7:7: this entry expands to 10004569 runs (modes × parameter values × benchmarks matched); a plan has at most 100000"}
	errs, _ := reject(t, suiteDoor, "product.yaml")
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("validate (-want +got):\n%s", diff)
	}
	var stdout, stderr bytes.Buffer
	var code int
	alloc := allocated(func() {
		code = Suite(context.Background(), []string{"plan", "product.yaml"}, registry, &stdout, &stderr)
	})
	if code != 2 || stdout.Len() > 0 || !strings.HasPrefix(stderr.String(), want[0]+"\n") || alloc > maxAlloc {
		t.Errorf("plan: exit %d, %d bytes allocated, stdout %q, stderr:\n%s", code, alloc, stdout.String(), stderr.String())
	}
}

// TestValidateReportsEveryMistakeAtOnce: a spec with schema errors is
// also checked against the registry without them, so one validate lists
// the entries that select nothing and the unknown parameters beside the
// schema's errors, not after they are fixed.
func TestValidateReportsEveryMistakeAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	body := `version: 1
name: t
defaults: {modes: [avgtt]}
benchmarks:
  - include: '^sort\.Ints$'
    forkz: 2
    params: {sizes: [1]}
  - include: '^sort\.Intz$'
  - include: '('
`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Suite(context.Background(), []string{"validate", path}, registry, &stdout, &stderr)
	want := []string{
		path + `:3:20: defaults.modes[0]: invalid value "avgtt" (did you mean "avgt"?)`,
		path + `:6:5: unknown key "forkz" in benchmarks[0] (did you mean "forks"?)`,
		path + `:9:14: benchmarks[2].include: invalid regular expression '('`,
		path + `:7:14: params: no selected benchmark declares parameter "sizes"`,
		path + `:8:14: include '^sort\.Intz$' matches no registered benchmark`,
		"1 file, 5 errors\n",
	}
	lines := strings.SplitAfter(stderr.String(), "\n")
	if code != 2 || len(lines) != len(want)+1 {
		t.Fatalf("exit %d, %d lines; want 2 and %d:\n%s", code, len(lines)-1, len(want), stderr.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start with %q", i+1, lines[i], w)
		}
	}
}
