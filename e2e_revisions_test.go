package benchspec_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/examples/suitetest"
)

// abSpec is a spec of one cheap registered benchmark for ab: two pairs.
const abSpec = `version: 1
name: ab
defaults:
  forks: 2
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 1ms}
benchmarks:
  - include: '^strings\.Repeat$'
`

// benchspecIn runs the benchspec program with args in dir, with env
// added, and returns its stdout, stderr and exit status.
func benchspecIn(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	stdout, stderr, code, err := runProgram(parent, dir, env, args...)
	if err != nil {
		t.Fatalf("benchspec %s: %v", strings.Join(args, " "), err)
	}
	return stdout, stderr, code
}

// runProgram is benchspecIn of the program parent, for any goroutine:
// err is a failure to run it, not an exit status.
func runProgram(parent, dir string, env []string, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(parent, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode(), nil
	}
	return out.String(), errb.String(), 0, err
}

// abRecipe are the arguments of ab --base base --new . of the suite in
// the module recipeModule makes, with its spec: its 2 pairs and no more
// (--max-pairs), as these tests are of the builds, not of a verdict.
func abRecipe(base, suite string) []string {
	return []string{"ab", "--quiet", "--base", base, "--new", ".", "--suite", suite, "--format", "json", "--threshold", "50%", "--max-pairs", "2", "bench/ci.yaml"}
}

// abRuns is the number of each side's runs that did not fail and ran
// two forks or more, from ab's JSON output.
func abRuns(t *testing.T, out string) (base, next int) {
	t.Helper()
	var got struct {
		Base, New struct {
			Runs []struct {
				Error string
				Forks []struct{ PID int }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, r := range got.Base.Runs {
		if r.Error == "" && len(r.Forks) >= 2 {
			base++
		}
	}
	for _, r := range got.New.Runs {
		if r.Error == "" && len(r.Forks) >= 2 {
			next++
		}
	}
	return base, next
}

// ab of two suite binaries named by relative paths runs their forks:
// the paths are made absolute before a fork starts elsewhere.
func TestABOfRelativeSuiteBinaries(t *testing.T) {
	suitetest.SkipShort(t)
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "old"), "./examples/quickstart")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "old"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "new"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ab.yaml"), []byte(abSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := benchspecIn(t, dir, []string{"BENCHSPEC_CACHE=" + t.TempDir()},
		"ab", "--quiet", "--base", "./old", "--new", "./new", "--format", "json", "--threshold", "50%", "--max-pairs", "2", "ab.yaml")
	if code != 0 {
		t.Fatalf("ab --base ./old --new ./new: exit %d, want 0\n%s", code, stderr)
	}
	if a, b := abRuns(t, out); a != 1 || b != 1 {
		t.Errorf("runs that ran: base %d, new %d; want 1 each\n%s", a, b, stderr)
	}
}

// writeTree writes files, by their slash-separated paths, under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// recipeModule sets up example.com/yourmodule in a git repository beside
// a "clone" of benchspec (a link to this repository) by a documented
// recipe — "workspace" (go work init . ../benchspec) or "replace" (a
// go.mod replace, GOWORK=off) — with a suite in bench/, a package of its
// own with a benchmark in work/, and a spec of both, all committed. It
// returns the module's directory and the environment to run in. The go
// command keeps its own GOPROXY: the replace recipe's go mod tidy needs
// benchspec's dependencies, as it would for a user.
func recipeModule(t *testing.T, recipe string) (string, []string) {
	t.Helper()
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(root, filepath.Join(dir, "benchspec")); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "yourmodule")
	files := map[string]string{
		"bench/main.go": "package main\n\nimport (\n\t\"strings\"\n\n\t\"github.com/benchspec/benchspec\"\n)\n\n" +
			"func main() {\n\tbenchspec.Register(\"work.repeat\", func(b *benchspec.B) {\n\t\tfor b.Loop() {\n\t\t\tbenchspec.Sink(strings.Repeat(\"ab\", 8))\n\t\t}\n\t})\n\tbenchspec.Main()\n}\n",
		"work/work.go":      "package work\n\nfunc Twice(s string) string { return s + s }\n",
		"work/work_test.go": "package work\n\nimport \"testing\"\n\nvar sink string\n\nfunc BenchmarkTwice(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Twice(\"ab\")\n\t}\n}\n",
		"bench/ci.yaml": `version: 1
name: ci
defaults:
  forks: 2
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 1ms}
benchmarks:
  - include: '^work\.repeat$'
  - package: ../work
    include: '^BenchmarkTwice$'
`,
	}
	writeTree(t, mod, files)
	env := []string{"GOFLAGS=", "GOWORK=", "BENCHSPEC_PARENT=", "BENCHSPEC_CACHE=" + t.TempDir(),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	lines := []string{"go mod init example.com/yourmodule"}
	if recipe == "workspace" {
		lines = append(lines, "go work init . ../benchspec", "go mod edit -tool=github.com/benchspec/benchspec/cmd/benchspec")
	} else {
		env = append(env, "GOWORK=off")
		lines = append(lines, "go mod edit -require=github.com/benchspec/benchspec@v0.0.0 -replace=github.com/benchspec/benchspec=../benchspec -tool=github.com/benchspec/benchspec/cmd/benchspec",
			"go mod tidy")
	}
	lines = append(lines, "git init -q", "git add -A", "git commit -q -m recipe")
	for _, line := range lines {
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = mod, append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
	}
	return mod, env
}

// The documented recipes hold for ab against a git revision: the
// revision, unpacked in the cache, is built with the working tree's
// workspace (or its replace) with absolute paths, where the recipe's
// ../benchspec means nothing; both sides run their suite's benchmark and
// their package's.
func TestABAtARevisionOfEachRecipe(t *testing.T) {
	suitetest.SkipShort(t)
	for _, recipe := range []string{"workspace", "replace"} {
		t.Run(recipe, func(t *testing.T) {
			mod, env := recipeModule(t, recipe)
			out, stderr, code := benchspecIn(t, mod, env, abRecipe("HEAD", "./bench")...)
			if code != 0 {
				t.Fatalf("ab --base HEAD --new . --suite ./bench: exit %d, want 0\n%s", code, stderr)
			}
			if a, b := abRuns(t, out); a != 2 || b != 2 {
				t.Errorf("runs that ran: base %d, new %d; want 2 each (the suite's and the package's)\n%s", a, b, stderr)
			}
		})
	}
}

// A third-party module's benchmarks run from a workspace: the package,
// in the read-only module cache, is built from a copy with the
// workspace's build list (the go command refuses the -modfile that
// module mode uses). The package is xxhash, a dependency of benchspec,
// so in the workspace's build list.
func TestThirdPartyPackageFromAWorkspace(t *testing.T) {
	suitetest.SkipShort(t)
	mod, env := recipeModule(t, "workspace")
	spec := "version: 1\nname: dep\nbenchmarks:\n  - package: github.com/cespare/xxhash/v2\n    include: '^BenchmarkSum64$'\n"
	if err := os.WriteFile(filepath.Join(mod, "bench", "dep.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := benchspecIn(t, mod, env, "plan", "--allow-packages-outside-module", "bench/dep.yaml")
	if code != 0 || !strings.Contains(out, "Sum64/4KB") {
		t.Fatalf("plan of xxhash's benchmarks from a workspace: exit %d, want 0 and its runs\n%s\n%s", code, out, stderr)
	}
}

// gitIn runs git with args in dir, with env, and fails the test on an
// error.
func gitIn(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// A revision name means one thing: a branch and a tag of one name are
// refused with both full names, a file of a revision's name with how to
// name either, and --suite as an import path builds the revision's
// package.
func TestABRevisionNamesMeanOneThing(t *testing.T) {
	suitetest.SkipShort(t)
	mod, env := recipeModule(t, "workspace")
	gitIn(t, mod, env, "tag", "v1")
	gitIn(t, mod, env, "commit", "-q", "--allow-empty", "-m", "second")
	gitIn(t, mod, env, "branch", "v1")
	ab := func(base, suite string) (string, string, int) {
		return benchspecIn(t, mod, env, abRecipe(base, suite)...)
	}
	_, stderr, code := ab("v1", "./bench")
	if code != 2 || !strings.Contains(stderr, "refs/heads/v1") || !strings.Contains(stderr, "refs/tags/v1") {
		t.Errorf("--base v1 (a tag and a branch): exit %d, want 2 naming both refs\n%s", code, stderr)
	}
	gitIn(t, mod, env, "branch", "old")
	if err := os.WriteFile(filepath.Join(mod, "old"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = ab("old", "./bench")
	if code != 2 || !strings.Contains(stderr, "both a file here and a git revision: write ./old for the file, or refs/heads/old for the revision") {
		t.Errorf("--base old (a file and a branch): exit %d, want 2 and how to name either\n%s", code, stderr)
	}
	out, stderr, code := ab("HEAD", "example.com/yourmodule/bench")
	if code != 0 {
		t.Fatalf("--suite as an import path at a revision: exit %d, want 0\n%s", code, stderr)
	}
	if a, b := abRuns(t, out); a != 2 || b != 2 {
		t.Errorf("runs that ran: base %d, new %d; want 2 each\n%s", a, b, stderr)
	}
}

// A revision's checkout edited in the cache is not built: ab says so and
// unpacks it again, and the revision's suite runs.
func TestABUnpacksAnEditedCheckoutAgain(t *testing.T) {
	suitetest.SkipShort(t)
	mod, env := recipeModule(t, "workspace")
	ab := func() (string, string, int) { return benchspecIn(t, mod, env, abRecipe("HEAD", "./bench")...) }
	if _, stderr, code := ab(); code != 0 {
		t.Fatalf("ab: exit %d\n%s", code, stderr)
	}
	var cache string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "BENCHSPEC_CACHE="); ok {
			cache = v
		}
	}
	mains, _ := filepath.Glob(filepath.Join(cache, "revisions", "*", "bench", "main.go"))
	if len(mains) != 1 {
		t.Fatalf("checkouts of bench/main.go in the cache: %v, want 1", mains)
	}
	data, err := os.ReadFile(mains[0])
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"work.repeat"`, `"work.edited"`, 1)
	if err := os.WriteFile(mains[0], []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := ab()
	if code != 0 || !strings.Contains(stderr, "bench/main.go was changed since it was unpacked") {
		t.Fatalf("ab after the checkout was edited: exit %d, want 0 and a warning naming bench/main.go\n%s", code, stderr)
	}
	if a, b := abRuns(t, out); a != 2 || b != 2 {
		t.Errorf("runs that ran: base %d, new %d; want 2 each: the revision's work.repeat on both sides\n%s", a, b, stderr)
	}
	if got, _ := os.ReadFile(mains[0]); string(got) != string(data) {
		t.Errorf("the checkout's bench/main.go is still the edited one")
	}
}

// Two ab on one fresh cache both succeed: each unpacks the revision
// privately and one checkout ends up in place.
func TestTwoABShareOneFreshCheckout(t *testing.T) {
	suitetest.SkipShort(t)
	mod, env := recipeModule(t, "workspace")
	type result struct {
		stderr string
		code   int
		err    error
	}
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	results := make(chan result, 2)
	for range 2 {
		go func() {
			_, stderr, code, err := runProgram(parent, mod, env, abRecipe("HEAD", "./bench")...)
			results <- result{stderr, code, err}
		}()
	}
	for range 2 {
		if r := <-results; r.err != nil || r.code != 0 {
			t.Errorf("one of two ab at once: exit %d (%v), want 0\n%s", r.code, r.err, r.stderr)
		}
	}
}

// validate refuses a build's compiler flags that would write or read a
// file, and a profile of a nested module, each at its position with exit
// status 2, before anything is built.
func TestValidateConfinesBuildFlagsAndProfiles(t *testing.T) {
	suitetest.SkipShort(t)
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/gm\n",
		"nested/go.mod":      "module example.com/nested\n",
		"nested/default.pgo": "",
		"bench/flags.yaml":   "version: 1\nname: g\nbuilds:\n  - name: evil\n    gcflags: 'all=-l -cpuprofile=/tmp/benchspec-evil'\nbenchmarks:\n  - include: x\n",
		"bench/profile.yaml": "version: 1\nname: g\nbuilds:\n  - name: pgo\n    pgo: ../nested/default.pgo\nbenchmarks:\n  - include: x\n",
		"bench/debug.yaml":   "version: 1\nname: g\nbuilds:\n  - name: dump\n    gcflags: -d=ssa/all/dump\nbenchmarks:\n  - include: x\n",
		"bench/pgoflag.yaml": "version: 1\nname: g\nbuilds:\n  - name: p\n    gcflags: -pgoprofile=/etc/passwd\nbenchmarks:\n  - include: x\n",
	}
	writeTree(t, mod, files)
	for spec, want := range map[string]string{
		"bench/flags.yaml":   "bench/flags.yaml:5:14: builds[0].gcflags: -cpuprofile is not a compiler flag a build may give",
		"bench/debug.yaml":   "bench/debug.yaml:5:14: builds[0].gcflags: -d=ssa/all/dump is not a debug setting",
		"bench/pgoflag.yaml": "bench/pgoflag.yaml:5:14: builds[0].gcflags: -pgoprofile is not a compiler flag",
		"bench/profile.yaml": "bench/profile.yaml:5:10: builds[0].pgo: ../nested/default.pgo is in another module (nested/go.mod)",
	} {
		_, stderr, code := benchspecIn(t, mod, nil, "validate", spec)
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("validate %s: exit %d, want 2 and %q\n%s", spec, code, want, stderr)
		}
	}
}

// validate refuses package: cmd/go, the go command rather than a package
// of the standard library, at its position with exit status 2.
func TestValidateRefusesTheGoCommandAsAPackage(t *testing.T) {
	suitetest.SkipShort(t)
	mod := t.TempDir()
	writeTree(t, mod, map[string]string{
		"go.mod": "module example.com/j\n",
		"s.yaml": "version: 1\nname: j\nbenchmarks:\n  - package: cmd/go\n    include: .\n",
	})
	_, stderr, code := benchspecIn(t, mod, nil, "validate", "s.yaml")
	if want := "s.yaml:4:14: benchmarks[0].package: cmd/go is in the Go distribution's cmd tree"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("validate package: cmd/go: exit %d, want 2 and %q\n%s", code, want, stderr)
	}
}

// ab judges a third-party module's benchmarks against a revision from a
// workspace, when the command line allows packages outside the module:
// at both sides the package is built from a copy of its module with the
// workspace's build list.
func TestABOfAThirdPartyPackageFromAWorkspace(t *testing.T) {
	suitetest.SkipShort(t)
	mod, env := recipeModule(t, "workspace")
	writeTree(t, mod, map[string]string{"bench/dep.yaml": `version: 1
name: dep
defaults:
  forks: 2
  warmup: {iterations: 0}
  measurement: {iterations: 1, time: 1ms}
benchmarks:
  - package: github.com/cespare/xxhash/v2
    include: '^BenchmarkSum64$/^4B$'
`})
	gitIn(t, mod, env, "add", "bench/dep.yaml")
	gitIn(t, mod, env, "commit", "-q", "-m", "dep")
	out, stderr, code := benchspecIn(t, mod, env, "ab", "--quiet", "--base", "HEAD", "--new", ".", "--allow-packages-outside-module",
		"--format", "json", "--threshold", "50%", "--max-pairs", "2", "bench/dep.yaml")
	if code != 0 {
		t.Fatalf("ab of xxhash's Sum64/4B: exit %d, want 0\n%s", code, stderr)
	}
	if a, b := abRuns(t, out); a != 1 || b != 1 {
		t.Errorf("runs that ran: base %d, new %d; want 1 each\n%s", a, b, stderr)
	}
}
