package gotest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"

	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// A checked-in spec must not be able to run code from anywhere on the
// machine: a `package:` entry names a package of the module that holds
// the spec, or of the standard library, and nothing else. The module is
// found as the go command finds it, by walking up from the spec file's
// directory to the first go.mod. Outside it are an absolute path or a
// relative one (../..) that leaves the module's directory, a directory
// of a nested module (one with a go.mod of its own), and an import path
// that is neither the module's (its path or below) nor the standard
// library's (a first element without a dot, as the go command reserves
// for it). The check reads only go.mod files; it is lexical for paths
// that do not exist, which the build then reports.
//
// The standard library is allowed because it is the go command's own
// code, which builds every package anyway. The distribution's cmd tree
// (cmd/go, cmd/compile, …) is not: it is the toolchain's commands, not a
// library a spec's code uses, and its tests drive the toolchain. A user who means to run
// another module's benchmarks says so on the command line
// (--allow-packages-outside-module), never in the spec.

// goModule is the Go module that holds a spec file.
type goModule struct {
	Path  string // the module path of its go.mod
	Dir   string // the directory of its go.mod, absolute, symbolic links resolved
	GoMod string // the go.mod file
}

// specModule finds the module that holds the spec file at specPath: the
// first go.mod in the spec's directory or above. ok is false when there
// is none.
func specModule(specPath string) (m goModule, ok bool, err error) {
	dir, err := filepath.Abs(filepath.Dir(specPath))
	if err != nil {
		return goModule{}, false, err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	gomod := findUp(dir, "go.mod")
	if gomod == "" {
		return goModule{}, false, nil
	}
	path, err := modulePath(gomod)
	if err != nil {
		return goModule{}, false, err
	}
	return goModule{Path: path, Dir: filepath.Dir(gomod), GoMod: gomod}, true, nil
}

// maxGoMod bounds the bytes of a go.mod read for its module line.
const maxGoMod = 1 << 20

// modulePath reads the module directive of a go.mod file.
func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGoMod+1))
	if err == nil && len(data) > maxGoMod {
		err = errors.New("go.mod larger than 1 MiB")
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", gomod, err)
	}
	if p := modfile.ModulePath(data); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("%s: no module directive", gomod)
}

// CheckPackageScope reports, at the position of each `package:` that
// names a package outside the module that holds its spec (see above),
// why, as a spec.ErrorList; nil when every package is inside.
func CheckPackageScope(specs []*spec.Spec) spec.ErrorList {
	var errs spec.ErrorList
	for _, s := range specs {
		var mod goModule
		var found bool
		var modErr error
		looked := false
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.Package == "" {
				continue
			}
			if !looked {
				mod, found, modErr = specModule(s.Path)
				looked = true
			}
			if !filepath.IsAbs(e.Package) && !plan.IsRelative(e.Package) {
				if why := uncleanImportPath(e.Package); why != "" {
					errs = append(errs, &spec.Error{Pos: e.PackagePos, Msg: fmt.Sprintf(
						"benchmarks[%d].package: %q is not an import path the go command accepts (%s): name the package by its clean import path (no empty, . or .. elements) or by a directory (./x)", e.Index, e.Package, why)})
					continue
				}
			}
			var why string
			switch {
			case modErr != nil:
				why = fmt.Sprintf("finding the module that holds this spec: %v", modErr)
			default:
				why = outside(s.Path, e.Package, mod, found)
			}
			if why != "" {
				errs = append(errs, &spec.Error{Pos: e.PackagePos, Msg: fmt.Sprintf(
					"benchmarks[%d].package: %s; a spec runs only the packages of its own module and the standard library (--allow-packages-outside-module lifts this)", e.Index, why)})
			}
		}
	}
	return errs
}

// outside says why the package pkg of the spec at specPath is outside
// mod (found: the spec is in a module at all), or "".
func outside(specPath, pkg string, mod goModule, found bool) string {
	where := func() string { return mod.holding(specPath) }
	if !filepath.IsAbs(pkg) && !plan.IsRelative(pkg) {
		rest, ok := strings.CutPrefix(pkg, mod.Path)
		ok = ok && found && (rest == "" || rest[0] == '/')
		switch {
		case !ok && (pkg == "cmd" || strings.HasPrefix(pkg, "cmd/")):
			// GOROOT/src/cmd holds the go command and the compiler, not
			// the standard library a spec's code may use.
			return fmt.Sprintf("%s is in the Go distribution's cmd tree (the go command, the compiler and their tools), not in the standard library", pkg)
		case !ok && isStd(pkg):
			return ""
		case !found:
			return fmt.Sprintf("%s is not in the standard library, and this spec is in no module (no go.mod in its directory or above)", pkg)
		case !ok:
			return fmt.Sprintf("%s is neither in %s nor in the standard library", pkg, where())
		}
		// The package's directory, its symbolic links resolved: a link in
		// the module to a directory outside it names code outside it.
		dir := filepath.Join(mod.Dir, filepath.FromSlash(strings.TrimPrefix(rest, "/")))
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		if !within(dir, mod.Dir) {
			return fmt.Sprintf("%s is in %s, outside the directory of %s (a symbolic link leads there)", pkg, dir, where())
		}
		if nested := nestedModule(mod.Dir, dir); nested != "" {
			return fmt.Sprintf("%s is in another module (%s), not in %s", pkg, nested, where())
		}
		return ""
	}
	if !found {
		return fmt.Sprintf("%s is a directory, and this spec is in no module (no go.mod in its directory or above)", pkg)
	}
	dir := plan.PackageKey(specPath, pkg)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if !within(dir, mod.Dir) {
		return fmt.Sprintf("%s is outside the directory of %s", pkg, where())
	}
	if nested := nestedModule(mod.Dir, dir); nested != "" {
		return fmt.Sprintf("%s is in another module (%s), not in %s", pkg, nested, where())
	}
	return ""
}

// holding names m as the module that holds the spec at specPath, with
// its go.mod relative to the spec's directory.
func (m goModule) holding(specPath string) string {
	if rel, err := filepath.Rel(absOr(filepath.Dir(specPath)), m.GoMod); err == nil {
		return fmt.Sprintf("the module %s that holds this spec (%s)", m.Path, rel)
	}
	return fmt.Sprintf("the module %s that holds this spec (%s)", m.Path, m.GoMod)
}

// uncleanImportPath says why pkg, written as an import path, is not one
// the go command accepts as it is written, or "". The scope check
// compares import paths as strings, so a path must mean what it says:
// example.com/m/../../other starts with the module's path and names
// another module's package (the go command refuses such paths itself,
// but benchspec refuses them before anything is built).
func uncleanImportPath(pkg string) string {
	switch {
	case strings.Contains(pkg, `\`):
		return "it has a backslash"
	case strings.HasPrefix(pkg, "/") || strings.HasSuffix(pkg, "/"):
		return "it starts or ends with /"
	}
	for _, elem := range strings.Split(pkg, "/") {
		switch elem {
		case "":
			return "it has an empty element (//)"
		case ".", "..":
			return fmt.Sprintf("it has a %q element", elem)
		}
	}
	if path.Clean(pkg) != pkg {
		return "it is not clean"
	}
	return ""
}

func absOr(dir string) string {
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return dir
}

// nestedModule returns the go.mod, relative to root, of a module nested
// in root that holds dir (a go.mod in dir or a directory between dir and
// root), or "".
func nestedModule(root, dir string) string {
	for d := dir; d != root && len(d) > len(root); d = filepath.Dir(d) {
		gomod := filepath.Join(d, "go.mod")
		if fi, err := os.Stat(gomod); err == nil && !fi.IsDir() {
			if rel, err := filepath.Rel(root, gomod); err == nil {
				return rel
			}
			return gomod
		}
	}
	return ""
}

// isStd reports whether the import path pkg is the standard library's:
// the go command reserves first elements without a dot for it (and
// "cmd"), as module paths must have one unless they are local.
// A first element without a dot is not enough: a local module (module
// evil, with a replace directive to a directory) has one too, so the
// package must also be a directory of GOROOT/src.
func isStd(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	if first == "" || strings.Contains(first, ".") || strings.Contains(pkg, "..") || strings.Contains(pkg, `\`) {
		return false
	}
	goroot := gorootDir()
	if goroot == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(pkg)))
	return err == nil && fi.IsDir()
}

// gorootDir is the GOROOT of the go command that builds the packages:
// the one this binary knows (runtime.GOROOT: $GOROOT, or where it was
// built), else what `go env GOROOT` says (a binary built with -trimpath
// knows none). It runs no package's code.
var gorootDir = sync.OnceValue(func() string {
	if dir := runtime.GOROOT(); dir != "" { //nolint:staticcheck // what go/build.Default.GOROOT is
		return filepath.Clean(dir)
	}
	cmd := exec.Command("go", "env", "GOROOT")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	out, _ := cmd.Output()
	return strings.TrimSpace(string(out))
})

// CheckBuildScope reports, at each build's pgo, a profile outside the
// module that holds its spec (outside the spec's directory when it is in
// no module): like a package entry's code, a build's profile comes from
// the spec's own tree.
func CheckBuildScope(specs []*spec.Spec) spec.ErrorList {
	var errs spec.ErrorList
	for _, s := range specs {
		for i := range s.Builds {
			b := &s.Builds[i]
			if !b.PGOFile() {
				continue
			}
			root, what := absOr(filepath.Dir(s.Path)), "the directory of this spec, which is in no module"
			mod, found, err := specModule(s.Path)
			if err != nil {
				errs = append(errs, &spec.Error{Pos: b.PGOPos, Msg: fmt.Sprintf("builds[%d].pgo: finding the module that holds this spec: %v", i, err)})
				continue
			}
			if found {
				root, what = mod.Dir, "the directory of "+mod.holding(s.Path)
			} else if real, err := filepath.EvalSymlinks(root); err == nil {
				root = real
			}
			path := plan.PGOPath(s.Path, b.PGO)
			if real, err := filepath.EvalSymlinks(path); err == nil {
				path = real // a link in the tree to a file outside it is outside
			}
			if !within(path, root) {
				errs = append(errs, &spec.Error{Pos: b.PGOPos, Msg: fmt.Sprintf(
					"builds[%d].pgo: %s is outside %s; a build's profile is a file of the spec's own tree", i, b.PGO, what)})
				continue
			}
			// Judged by module, as a package is: a nested module is
			// another module's tree.
			if nested := nestedModule(root, filepath.Dir(path)); found && nested != "" {
				errs = append(errs, &spec.Error{Pos: b.PGOPos, Msg: fmt.Sprintf(
					"builds[%d].pgo: %s is in another module (%s), not in %s; a build's profile is a file of the spec's own module", i, b.PGO, nested, what)})
				continue
			}
			// A FIFO or a device would hang or flood the compiler.
			if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
				errs = append(errs, &spec.Error{Pos: b.PGOPos, Msg: fmt.Sprintf(
					"builds[%d].pgo: %s is %s, not a profile file", i, b.PGO, filehash.Kind(fi.Mode()))})
			}
		}
	}
	return errs
}
