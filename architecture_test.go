package benchspec_test

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/benchspec/benchspec"

// stages are the module's packages in the order of ARCHITECTURE.md's
// flow: a package imports only packages of earlier stages, never one of
// its own stage or a later one. Test support and examples are the last
// stage, whose packages may import each other. A package missing here fails TestImportsFollowTheFlow:
// place it (and describe it in ARCHITECTURE.md).
var stages = [][]string{
	{"schemas", "internal/suggest", "internal/filehash", "executor/internal/child", "internal/forkimage", "internal/protocol/hist", "report/stats", "internal/termsafe", "report/explain"},
	// The fork side: what a suite binary links.
	{"internal/protocol"},
	{"internal/worker", "internal/handoff"},
	{""}, // the root package: what benchmark authors import
	// The parent side: the benchspec program.
	{"spec"},
	{"plan"},
	{"executor", "executor/gotest"},
	{"report/diag"},
	{"report"},
	{"report/compare", "report/host", "report/history/index"},
	{"report/history"},
	{"report/format"},
	{"report/format/html", "cmd/benchspec/internal/runlog"},
	{"cmd/benchspec/internal/cli"},
	{"cmd/benchspec", "examples/suitetest", "report/reporttest", "examples/faultsuite", "report/history/historytest", "report/format/gobenchtwin", "examples/..."},
}

// floors are the module's top-level folders from the bottom up ("" is the
// root package, "internal" the fork side and the leaves every stage
// shares): a package imports only packages of its own folder or of a
// lower floor, so that the top of the tree draws the flow. Test support
// and examples live in examples/, the top floor with cmd/.
var floors = [][]string{
	{"internal", "schemas"},
	{"", "spec"},
	{"plan"},
	{"executor"},
	{"report"},
	{"cmd", "examples"},
}

// maxFloorShare bounds the non-test lines of one top-level folder, as a
// share of all of them outside tools/: no folder may again hold both ends
// of the flow.
const maxFloorShare = 0.35

// onlyImportedBy names packages that, beyond the stage order, only the
// listed packages may import.
var onlyImportedBy = map[string][]string{
	// Charts link gonum/plot and its fonts; every suite binary, hence
	// every fork, would pay their initialisation.
	"report/format/html": {"cmd/benchspec"},
}

// TestImportsFollowTheFlow checks the import graph of the module's
// non-test code against stages: no package imports a later stage (or a
// package of its own stage), so the flow spec → plan → executor → report
// → formats has no back edges; and that ARCHITECTURE.md names every
// package.
func TestImportsFollowTheFlow(t *testing.T) {
	stage := map[string]int{}
	for i, pkgs := range stages {
		for _, p := range pkgs {
			stage[p] = i
		}
	}
	stageOf := func(p string) (int, bool) {
		if i, ok := stage[p]; ok {
			return i, true
		}
		for q, i := range stage {
			if prefix, ok := strings.CutSuffix(q, "..."); ok && strings.HasPrefix(p, prefix) {
				return i, true
			}
		}
		return 0, false
	}
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkgs := range stages {
		for _, p := range pkgs {
			if p != "" && !strings.Contains(string(doc), "`"+p+"`") {
				t.Errorf("ARCHITECTURE.md does not describe `%s`", p)
			}
		}
	}
	imports := modulePackages(t)
	checkFloors(t, imports)
	for p, deps := range imports {
		ps, ok := stageOf(p)
		if !ok {
			t.Errorf("package %q is in no stage: add it to stages here and to ARCHITECTURE.md", p)
			continue
		}
		for _, d := range deps {
			ds, ok := stageOf(d)
			if ok && (ds > ps || ds == ps && ps < len(stages)-1) {
				t.Errorf("%q (stage %d) imports %q (stage %d): a package imports only earlier stages", p, ps, d, ds)
			}
			if allowed, ok := onlyImportedBy[d]; ok && !slices.Contains(allowed, p) {
				t.Errorf("%q imports %q, which only %v may import", p, d, allowed)
			}
		}
	}
}

// top is the top-level folder of package p ("" for the root package).
func top(p string) string {
	first, _, _ := strings.Cut(p, "/")
	return first
}

// checkFloors checks that no import between top-level folders runs up
// the floors, and that no top-level folder outgrows maxFloorShare.
func checkFloors(t *testing.T, imports map[string][]string) {
	t.Helper()
	floor := map[string]int{}
	for i, tops := range floors {
		for _, f := range tops {
			floor[f] = i
		}
	}
	for p, deps := range imports {
		pf, ok := floor[top(p)]
		if !ok {
			t.Errorf("package %q is in top-level folder %q, which has no floor: add it to floors", p, top(p))
			continue
		}
		for _, d := range deps {
			if df, ok := floor[top(d)]; ok && top(d) != top(p) && df >= pf {
				t.Errorf("%q imports %q: an arrow from top-level %q up to %q (floor %d to %d)", p, d, top(p), top(d), pf, df)
			}
		}
	}
	lines := map[string]int{}
	total := 0
	for p := range imports {
		dir := p
		if dir == "" {
			dir = "."
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			n := strings.Count(string(data), "\n")
			lines[top(p)] += n
			total += n
		}
	}
	for f, n := range lines {
		if share := float64(n) / float64(total); f != "" && share > maxFloorShare {
			t.Errorf("top-level folder %s/ holds %d of %d non-test lines (%.0f %%), above %.0f %%: it holds more than one room of the flow", f, n, total, 100*share, 100*maxFloorShare)
		}
	}
}

// modulePackages returns, for every package of the module with non-test
// Go files, its imports within the module, paths relative to the module
// ("" is the root package).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		// tools/ is the project's performance lab (selfbench, experiment
		// scripts), not the product: it may import any package.
		if filepath.ToSlash(path) == "tools" {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				return nil
			}
			return err
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			rel = ""
		}
		var deps []string
		for _, imp := range pkg.Imports {
			if imp == module {
				deps = append(deps, "")
			} else if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				deps = append(deps, r)
			}
		}
		out[rel] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("go.mod"); err != nil || len(out) < 10 {
		t.Fatalf("found %d packages (%v); run from the module root", len(out), err)
	}
	return out
}

// TestSuiteBinaryLinksOnlyTheForkSide keeps a suite binary, which every
// fork executes, to the fork side: the root package, the worker and the
// fork protocol. What reads specs, plans, reports and draws is the
// benchspec program's (cmd/benchspec); a fork that linked it would run
// its package initialisation at every start. Nor does a suite link the
// network stack, TLS or cgo (net's resolver makes a binary dynamically
// linked).
func TestSuiteBinaryLinksOnlyTheForkSide(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./examples/seeds").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, p := range []string{module, module + "/internal/worker", module + "/internal/protocol"} {
		if !slices.Contains(deps, p) {
			t.Fatalf("go list -deps ./examples/seeds does not list %s; the test reads the wrong package: %v", p, deps)
		}
	}
	forbidden := []string{
		"gopkg.in/yaml.v3", "gonum.org/", "golang.org/x/perf", "github.com/xeipuuv/", "github.com/santhosh-tekuri/",
		"github.com/olekukonko/",
		"net", "net/http", "crypto/tls", "runtime/cgo",
	}
	for _, own := range []string{"spec", "plan", "report", "executor", "report/diag", "report/format", "cmd/benchspec/internal/cli", "executor/gotest", "report/history"} {
		forbidden = append(forbidden, module+"/"+own)
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasSuffix(f, "/") && strings.HasPrefix(d, f) || strings.HasPrefix(d, f+"/") && strings.HasPrefix(f, module+"/") {
				t.Errorf("a suite binary links %s: it belongs to the benchspec program; find who imports it with go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./examples/seeds", d)
			}
		}
	}
}

// TestForkSettingIsNamedInFewFiles keeps ARCHITECTURE.md's "Add a spec
// key" true for a key that changes how a fork measures: besides the
// schemas, gc_before_iteration is named in at most four non-test Go
// files outside examples/ and tools/, because spec.Settings embeds
// protocol.Settings, spec decodes a key into the field of its JSON name
// and the plan hands the fork's settings on as they are.
func TestForkSettingIsNamedInFewFiles(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (path == "examples" || path == "tools" || d.Name() == "testdata" || path != "." && strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(path)
		if s := strings.ToLower(string(src)); strings.Contains(s, "gc_before_iteration") || strings.Contains(s, "gcbeforeiteration") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) > 4 {
		t.Errorf("gc_before_iteration is named in %d non-test Go files, want at most 4 (ARCHITECTURE.md, \"Add a spec key\"): %s", len(files), strings.Join(files, ", "))
	}
}
