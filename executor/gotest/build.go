package gotest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchspec/benchspec/executor/internal/child"
	"github.com/benchspec/benchspec/internal/filehash"
)

// listed is what go list says of a package.
type listed struct {
	ImportPath   string
	Dir          string
	Name         string
	TestGoFiles  []string
	XTestGoFiles []string
	Module       *struct {
		Path string
		Main bool   // the main module: the spec's
		Dir  string // the directory of the module's files, in the module cache for a dependency
	}
}

// list resolves pkg with go list, run in dir ("": the current one), as
// the variant x sees it (its tags select files), with the extra flags
// (-modfile).
func (b *Builder) list(ctx context.Context, dir, pkg string, x variant, flags ...string) (*listed, error) {
	if strings.HasPrefix(pkg, "-") {
		return nil, fmt.Errorf("invalid package %q", pkg)
	}
	args := append(append([]string{"list"}, x.args...), flags...)
	args = append(args, "-json=ImportPath,Dir,Name,TestGoFiles,XTestGoFiles,Module", "--", pkg)
	out, err := b.goCmd(ctx, dir, x, args...)
	if err != nil {
		return nil, fmt.Errorf("package %q: %w", pkg, err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var l listed
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("package %q: unexpected go list output: %v", pkg, err)
		}
		pkgs = append(pkgs, l)
	}
	switch {
	case len(pkgs) == 0:
		return nil, fmt.Errorf("package %q matches no package", pkg)
	case len(pkgs) > 1:
		return nil, fmt.Errorf("package %q names %d packages; name exactly one", pkg, len(pkgs))
	}
	l := &pkgs[0]
	if len(l.TestGoFiles) == 0 && len(l.XTestGoFiles) == 0 {
		return nil, fmt.Errorf("package %s has no test files, so no benchmarks", l.ImportPath)
	}
	return l, nil
}

// benchmarkFuncs are the benchmark functions the package's test files
// declare, as go test finds them (func BenchmarkXxx(b *testing.B) at top
// level), sorted, and which of them the external test package declares.
func benchmarkFuncs(l *listed) (funcs []string, external, leaves map[string]bool, err error) {
	external, leaves = map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	for _, kind := range []struct {
		files []string
		ext   bool
	}{{l.TestGoFiles, false}, {l.XTestGoFiles, true}} {
		for _, name := range kind.files {
			f, err := parser.ParseFile(fset, filepath.Join(l.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("reading the benchmarks of %s: %w", l.ImportPath, err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !isBenchmarkName(fd.Name.Name) {
					continue
				}
				funcs = append(funcs, fd.Name.Name)
				external[fd.Name.Name] = kind.ext
				if isLeaf(fd) {
					leaves[fd.Name.Name] = true
				}
			}
		}
	}
	sort.Strings(funcs)
	return funcs, external, leaves, nil
}

// isLeaf reports whether the benchmark function fd certainly has no
// sub-benchmarks, so that listing it needs no run: its *testing.B
// parameter is unnamed, or every use of it selects a field or method
// other than Run (b.N, b.Loop(), b.RunParallel(…)). Passing b on, storing
// it, or naming b.Run anywhere — a closure included — makes it no leaf,
// as does a parameter name shadowed inside (judged as the same name: the
// check errs on the side of running).
func isLeaf(fd *ast.FuncDecl) bool {
	params := fd.Type.Params.List
	if len(params) != 1 || fd.Body == nil {
		return false
	}
	if len(params[0].Names) == 0 {
		return true
	}
	name := params[0].Names[0].Name
	if name == "_" {
		return true
	}
	leaf := true
	selected := map[*ast.Ident]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !leaf {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && id.Name == name {
				if n.Sel.Name == "Run" {
					leaf = false
				}
				selected[id] = true
			}
		case *ast.Ident:
			if n.Name == name && !selected[n] {
				leaf = false
			}
		}
		return true
	})
	return leaf
}

// isBenchmarkName is go test's rule: "Benchmark", then nothing or a
// rune that is not a lower-case letter.
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// overlay writes benchspec's driver files for the package into the
// cache (named by their content, so that an unchanged package gets the
// same files and so the same binary) and returns the -overlay file.
func overlay(cache string, l *listed, funcs []string, external map[string]bool) (string, error) {
	dir := filepath.Join(cache, "overlay")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	replace := map[string]string{}
	for _, ext := range []bool{false, true} {
		var mine []string
		for _, f := range funcs {
			if external[f] == ext {
				mine = append(mine, f)
			}
		}
		if len(mine) == 0 {
			continue
		}
		pkg := l.Name
		if ext {
			pkg += "_test"
		}
		src, err := Source(pkg, ext, mine)
		if err != nil {
			return "", err
		}
		path, err := writeByContent(dir, ".go", src)
		if err != nil {
			return "", err
		}
		replace[filepath.Join(l.Dir, FileName(ext))] = path
	}
	js, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	return writeByContent(dir, ".json", js)
}

// writeByContent writes data to dir/<sha256>ext unless it is there.
func writeByContent(dir, ext string, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	path := filepath.Join(dir, hex.EncodeToString(sum[:12])+ext)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return path, nil
	}
	return path, writeFileAtomic(path, data)
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// build runs go test -c on pkg in dir, with the driver overlay and the
// variant x, into a temporary file in the cache and installs the result
// under its content hash: Go builds are reproducible, so an unchanged
// package gets the same file.
func (b *Builder) build(ctx context.Context, cache, dir, pkg, importPath, overlayFile string, mf *modFile, x variant) (string, error) {
	tmp, err := os.MkdirTemp(cache, ".build-")
	if err != nil {
		return "", fmt.Errorf("test binary cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "pkg.test")
	args := append([]string{"test", "-c", "-o", bin, "-overlay", overlayFile}, mf.args()...)
	args = append(args, x.args...)
	x = mf.apply(x)
	if _, err := b.goCmd(ctx, dir, x, append(args, pkg)...); err != nil {
		return "", fmt.Errorf("building the test binary of %s failed: %w", importPath, err)
	}
	final, err := install(cache, bin, importPath)
	if err != nil {
		return "", fmt.Errorf("building the test binary of %s: %w", importPath, err)
	}
	return final, nil
}

// install moves the binary at bin into the cache as <name>-<its SHA-256>.test
// and records the sum beside it (verifyBinary): Go builds are
// reproducible, so an unchanged package gets the same file.
func install(cache, bin, name string) (string, error) {
	sum, err := filehash.SHA256(bin)
	if err != nil {
		return "", err
	}
	name = strings.Trim(unsafeChars.ReplaceAllString(name, "_"), "_.")
	final := filepath.Join(cache, fmt.Sprintf("%s-%s.test", name, sum[:16]))
	// An identical binary already there is kept, if it is the one its
	// record says: a file merely named like it (replaced, or left by a
	// benchspec that kept no record) is replaced.
	if recorded(final) == sum && verifyBinary(final) == nil {
		return final, nil
	}
	if err := os.Rename(bin, final); err != nil {
		return "", fmt.Errorf("binary cache: %w", err)
	}
	if err := record(final, sum); err != nil {
		return "", fmt.Errorf("binary cache: %w", err)
	}
	return final, nil
}

// goCmd runs the go command in dir ("": the current one), in the
// environment of the variant x, and returns its stdout; a failure carries
// its stderr.
func (b *Builder) goCmd(ctx context.Context, dir string, x variant, args ...string) (string, error) {
	env, err := b.checkoutEnv(ctx, dir)
	if err != nil {
		return "", err
	}
	return b.run(ctx, dir, append(env, x.env...), args...)
}

// run runs the go command in dir with env added to this process's
// environment; goCmd's, without a checkout's environment.
func (b *Builder) run(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, b.goBin(), args...)
	child.KillGroupOnCancel(cmd) // the compiler and linker too
	cmd.Dir = dir
	// A go or toolchain line of the package's go.mod must not download
	// and run another toolchain: the go command on PATH builds, or says
	// why it cannot. Only a spec's build names another (x.env, later in
	// the list, wins).
	cmd.Env = append(append(os.Environ(), "GOTOOLCHAIN=local"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr.Len() > 0 {
			return "", fmt.Errorf("go %s failed:%s", args[0], indent(stderr.String()))
		}
		return "", fmt.Errorf("go %s: %v%s", args[0], err, indent(stderr.String()))
	}
	return stdout.String(), nil
}

func (b *Builder) goBin() string {
	if b.Go == "" {
		return "go"
	}
	return b.Go
}

// indent puts the command output s on lines of its own, indented, for
// an error message; "" stays "".
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "\n\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
