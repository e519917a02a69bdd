package spec

import (
	"strings"
	"testing"
)

// TestGCFlagsAreConfined: a build's gcflags give only the compiler
// flags that write and read no file, refused at the gcflags value's
// position with what is allowed; the flags that change code generation
// or print pass, with a package pattern or without.
func TestGCFlagsAreConfined(t *testing.T) {
	for _, c := range []struct{ gcflags, want string }{
		{"-l", ""},
		{"all=-N -l", ""},
		{"example.com/m/...=-m=2 -m", ""},
		{"-c=4 -B -d=checkptr", ""},
		{"-d checkptr,ssa/check_bce/debug=1", ""},
		{"--l", ""},
		{"-cpuprofile=/tmp/x", "-cpuprofile is not a compiler flag a build may give"},
		{"-memprofile=x", "-memprofile is not"},
		{"-traceprofile=x", "-traceprofile is not"},
		{"-asmhdr=x", "-asmhdr is not"},
		{"-bench=x", "-bench is not"},
		{"-o=x", "-o is not"},
		{"-o x", "-o is not"},
		{"-pgoprofile=../../p.pgo", "-pgoprofile is not"},
		{"-json=0,file:///tmp", "-json is not"},
		{"all=-l -importcfg=x", "-importcfg is not"},
		{"--cpuprofile=x", "-cpuprofile is not"},
		{" -l -cpuprofile=x", "-cpuprofile is not"},
		{"-d=ssa/all/dump", "-d=ssa/all/dump is not a debug setting"},
		{"-d=checkptr,ssa/opt/dump", "-d=ssa/opt/dump is not"},
		{"-c", "-c needs a value"},
		{"x -cpuprofile=y", `"y" is not a compiler flag`},
		{`-l "-cpuprofile=x"`, "quotes are not needed"},
		{"-l\u00a0-cpuprofile=x", "printable ASCII"},
	} {
		doc := "version: 1\nname: g\nbuilds:\n  - name: b\n    gcflags: " + quoteYAML(c.gcflags) + "\nbenchmarks:\n  - include: x\n"
		_, err := Parse("g.yaml", []byte(doc))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("gcflags %q: %v, want accepted", c.gcflags, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), "g.yaml:5:14: builds[0].gcflags: ") || !strings.Contains(err.Error(), c.want)):
			t.Errorf("gcflags %q: %v, want refused at g.yaml:5:14 with %q", c.gcflags, err, c.want)
		}
	}
}

func quoteYAML(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
