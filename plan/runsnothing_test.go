package plan

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPlanRunsNothing: planning is a function of its inputs. It starts
// no command and reads no file (the go command's answers, a module's
// go.mod, reach it as plain data from executor/gotest), so plan imports
// neither os nor os/exec.
func TestPlanRunsNothing(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os" || p == "os/exec" {
				t.Errorf("%s imports %s: plan runs no command and reads no file", f, p)
			}
		}
	}
}
