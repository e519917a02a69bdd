package spec

import (
	"fmt"
	"strings"
	"testing"
)

// TestSyntaxErrorPositions: yaml.v3 gives a syntax error's line and no
// column; the error names the line and column of the character at fault,
// with a hint where one helps.
func TestSyntaxErrorPositions(t *testing.T) {
	const head = "version: 1\nname: t\nbenchmarks:\n"
	for _, c := range []struct {
		name, body string
		want       string // line:col: message, a prefix of it
	}{
		{"second colon", "  - include: x\n    modes: avgt: thrpt\n", `5:16: invalid YAML: mapping values are not allowed in this context; a value that holds ": " must be quoted`},
		{"continued value", "  - include: a\n     forks: 2\n", "5:11: invalid YAML: mapping values are not allowed in this context; this line is read as part of the value above it"},
		{"colon in a quoted value is no indicator", "  - include: 'a: b' x: y\n", "4:22: invalid YAML: mapping values"},
		{"double-quoted regexp", `  - include: "^map\.Lookup$"` + "\n", `4:19: invalid YAML: found unknown escape character \. in a double-quoted string, where a backslash begins an escape such as \n; write a regular expression in single quotes, which keep backslashes as written: '^map\.Lookup$'`},
		{"good escape before the bad one", `  - include: "\t^a\d"` + "\n", `4:19: invalid YAML: found unknown escape character \d`},
		{"unclosed flow sequence", "  - include: x\n    modes: [avgt, thrpt\n  - include: y\n", "5:12: invalid YAML: did not find expected ',' or ']'; the [ here is not closed"},
		{"unclosed flow mapping", "  - include: x\n    warmup: {iterations: 1\n  - include: y\n", "5:13: invalid YAML: did not find expected ',' or '}'; the { here is not closed"},
		{"unclosed quote", "  - include: x\n    forks: \"abc\n", "5:12: invalid YAML: found unexpected end of stream; the quoted string that starts here is not closed"},
		{"reserved character", "  - include: x\n    exclude: `y`\n", "5:14: invalid YAML: found character that cannot start any token; ` is reserved in YAML: quote the value"},
		{"text after a quoted value", "  - include: 'x' y\n", "4:18: invalid YAML: did not find expected key; text after a quoted string: quote the whole value"},
		{"key without colon", "  - include: x\n    forks\n    modes: [avgt]\n", "5:5: invalid YAML: could not find expected ':'"},
		{"key outside its list", "  - include: x\n  forks: 1\n", "5:3: invalid YAML: did not find expected '-' indicator; a line at the list's indentation that is not an item"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(head+c.body))
			errs := Errors(err)
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one", err)
			}
			got := fmt.Sprintf("%d:%d: %s", errs[0].Pos.Line, errs[0].Pos.Col, errs[0].Msg)
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// FuzzSyntaxPos: whatever the text and the line yaml.v3 names, syntaxPos
// ends and returns a position inside the file.
func FuzzSyntaxPos(f *testing.F) {
	f.Add([]byte("a:\n  - b\n c: [d\n"), 2, "did not find expected '-' indicator")
	f.Add([]byte(`a: "x\q"`), 1, "found unknown escape character")
	f.Fuzz(func(t *testing.T, data []byte, line int, msg string) {
		if line < 1 || line > 1000 {
			return
		}
		l, c, _, _ := syntaxPos(data, line, msg)
		if l < 1 || c < 1 || l > strings.Count(string(data), "\n")+1 && l != line {
			t.Errorf("syntaxPos(%q, %d, %q) = %d:%d", data, line, msg, l, c)
		}
	})
}
