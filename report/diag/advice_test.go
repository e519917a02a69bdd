package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAdviceNamesTheRealAPI checks that every piece of the user API a
// diagnostic's advice names — benchspec.Name, or b.Method of the handle a
// body measures with — exists: DEAD_CODE advised b.Sink, which B never
// had (issue 19). It reads the string literals of this package's sources
// and the declarations of the root package and of B's package.
func TestAdviceNamesTheRealAPI(t *testing.T) {
	root := moduleRoot(t)
	pkg, imports := exported(t, root)
	methods := methodsOfB(t, root, imports)
	named := regexp.MustCompile(`\b(benchspec|b)\.([A-Za-z_]\w*)`)
	seen := 0
	for _, lit := range stringLiterals(t, ".") {
		for _, m := range named.FindAllStringSubmatch(lit, -1) {
			seen++
			if m[1] == "benchspec" && !pkg[m[2]] {
				t.Errorf("advice names %s, which package benchspec does not export: %q", m[0], lit)
			}
			if m[1] == "b" && !methods[m[2]] {
				t.Errorf("advice names %s, which benchspec.B has no method for: %q", m[0], lit)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no advice names any API: the DEAD_CODE remedy (benchspec.Sink) was expected")
	}
}

// moduleRoot is the directory of go.mod above the working directory.
func moduleRoot(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func stringLiterals(t *testing.T, dir string) []string {
	var out []string
	for _, f := range parseDir(t, dir) {
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, s)
				}
			}
			return true
		})
	}
	return out
}

// exported returns the exported top-level names of the package in dir
// and its imports by local name.
func exported(t *testing.T, dir string) (map[string]bool, map[string]string) {
	names, imports := map[string]bool{}, map[string]string{}
	for _, f := range parseDir(t, dir) {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				local = imp.Name.Name
			}
			imports[local] = path
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = d.Name.IsExported()
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = s.Name.IsExported()
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = n.IsExported()
						}
					}
				}
			}
		}
	}
	return names, imports
}

// methodsOfB returns the exported methods of benchspec.B, following the
// alias to the package that defines it.
func methodsOfB(t *testing.T, root string, imports map[string]string) map[string]bool {
	dir := root
	for _, f := range parseDir(t, root) {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Name.Name != "B" {
					continue
				}
				if sel, ok := ts.Type.(*ast.SelectorExpr); ok && ts.Assign.IsValid() {
					path := imports[sel.X.(*ast.Ident).Name]
					dir = filepath.Join(root, strings.TrimPrefix(path, "github.com/benchspec/benchspec/"))
				}
			}
		}
	}
	methods := map[string]bool{}
	for _, f := range parseDir(t, dir) {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "B" {
				methods[fn.Name.Name] = true
			}
		}
	}
	if len(methods) == 0 {
		t.Fatalf("found no methods of B in %s", dir)
	}
	return methods
}
