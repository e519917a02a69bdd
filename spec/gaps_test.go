package spec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/schemas"
)

// TestSpecEnvMayNotRedirectExecution: a spec's env may not set what
// changes which programs a fork or its children execute or how shells
// start (a fake sleep first on PATH, BASH_ENV, ENV, …), while the Go
// runtime's knobs stay allowed; the schema's description of env and the
// error message name every refused variable.
func TestSpecEnvMayNotRedirectExecution(t *testing.T) {
	for _, name := range []string{"PATH", "BASH_ENV", "ENV", "IFS", "SHELLOPTS", "BASHOPTS", "PS4", "BASH_FUNC_ls%%", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GCONV_PATH", "PYTHONPATH"} {
		src := "version: 1\nname: x\ndefaults:\n  env: {" + quoteKey(name) + ": /tmp/x}\nbenchmarks:\n  - include: a\n"
		_, err := Parse("s.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "s.yaml:4:") || !strings.Contains(err.Error(), "may not set "+name) ||
			!strings.Contains(err.Error(), "docs/security.md") {
			t.Errorf("env %s: %v; want it refused at its position, pointing to the list of refused variables", name, err)
		}
	}
	for _, kv := range []string{`GOGC: "50"`, `GOMAXPROCS: "2"`, `GODEBUG: "gctrace=1"`, `GOMEMLIMIT: 1GiB`, `HOME: /tmp`} {
		src := "version: 1\nname: x\ndefaults:\n  env: {" + kv + "}\nbenchmarks:\n  - include: a\n"
		if _, err := Parse("s.yaml", []byte(src)); err != nil {
			t.Errorf("env {%s}: %v; a runtime knob must stay allowed", kv, err)
		}
	}
	var schema struct {
		Definitions map[string]struct {
			Description string `json:"description"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(schemas.Spec, &schema); err != nil {
		t.Fatal(err)
	}
	desc := schema.Definitions["env"].Description
	for _, name := range append(RefusedEnvNames(), RefusedEnvClasses()...) {
		name = strings.TrimSuffix(name, ")") // a class: its patterns follow its name
		if !strings.Contains(desc, name) {
			t.Errorf("the schema's env description does not name %s, which a spec may not set", name)
		}
	}
}

func quoteKey(k string) string {
	if strings.ContainsAny(k, "%") {
		return `"` + k + `"`
	}
	return k
}

// TestValidationGapsInSpecs: integers in YAML 1.1 forms (010, which
// yaml.v3 reads as 8; 1_000; 0b10) are refused rather than read as
// another number; GOMAXPROCS in env must be a positive integer, which the
// runtime applies; a NUL in an env value, which no fork could start with,
// is refused at validate; precision.error's message says what is valid.
func TestValidationGapsInSpecs(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"forks: 010", "defaults.forks: 010 has a leading zero"},
		{"forks: -010", "defaults.forks: -010 has a leading zero"},
		{"forks: 1_0", "defaults.forks: 1_0 has a digit separator"},
		{"forks: 0b11", "defaults.forks: 0b11 is a YAML 1.1 binary number"},
		{`env: {GOMAXPROCS: abc}`, `defaults.env.GOMAXPROCS: "abc" is not a positive integer`},
		{`env: {GOMAXPROCS: "-1"}`, `defaults.env.GOMAXPROCS: "-1" is not a positive integer`},
		{`env: {GOMAXPROCS: "0"}`, `defaults.env.GOMAXPROCS: "0" is not a positive integer`},
		{`env: {GOMAXPROCS: "04"}`, `defaults.env.GOMAXPROCS: "04" is not a positive integer`},
		{`env: {X: "a\0b"}`, "defaults.env.X: the value contains a NUL character"},
		{`precision: {error: 0%}`, `defaults.precision.error: invalid error "0%"; want a percentage above 0 followed by %, such as 1% or 0.5%`},
	}
	for _, tt := range tests {
		src := "version: 1\nname: x\ndefaults:\n  " + tt.yaml + "\nbenchmarks:\n  - include: a\n"
		_, err := Parse("s.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "s.yaml:4:") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want an error at line 4 with %q", tt.yaml, err, tt.want)
		}
	}
	for _, ok := range []string{"forks: 10", "forks: 0x0a", "forks: 0o12", "forks: +10", `env: {GOMAXPROCS: "16"}`} {
		src := "version: 1\nname: x\ndefaults:\n  " + ok + "\nbenchmarks:\n  - include: a\n"
		s, err := Parse("s.yaml", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", ok, err)
		} else if strings.HasPrefix(ok, "forks") && s.Defaults.Forks != 10 {
			t.Errorf("%s: forks %d, want 10", ok, s.Defaults.Forks)
		}
	}
}
