package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	goodSpec = "../../spec/testdata/good/minimal.yaml"
	badSpec  = "../../spec/testdata/bad/missing_include.yaml"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		status     int
		stdout     string // substring; "" means stdout must be empty
		stderr     []string
		jsonStdout bool
	}{
		{
			name:   "validate good",
			args:   []string{"validate", goodSpec},
			stderr: []string{goodSpec + ": ok (1 entry)", "1 file, 0 errors"},
		},
		{
			name:   "validate good and bad",
			args:   []string{"validate", goodSpec, badSpec},
			status: 2,
			stderr: []string{
				goodSpec + ": ok (1 entry)",
				badSpec + ":1:10: version: unsupported spec version 2; this benchspec reads version 1",
				badSpec + `:2:7: name: invalid name "my suite"; use only letters, digits, '_', '.' and '-'`,
				badSpec + `:4:5: missing required key "include" in benchmarks[0]`,
				badSpec + ":5:14: benchmarks[1].include: must not be empty",
				"2 files, 4 errors",
			},
		},
		{name: "schema default", args: []string{"schema"}, jsonStdout: true, stdout: `"$id"`},
		{name: "schema spec", args: []string{"schema", "spec"}, jsonStdout: true, stdout: `"benchmarks"`},
		{name: "schema result", args: []string{"schema", "result"}, jsonStdout: true, stdout: "{"},
		{name: "schema history", args: []string{"schema", "history"}, jsonStdout: true, stdout: `"change_points"`},
		{name: "schema comparison", args: []string{"schema", "comparison"}, jsonStdout: true, stdout: `"where_note"`},
		{name: "schema ab", args: []string{"schema", "ab"}, jsonStdout: true, stdout: `"$ref": "comparison.schema.json"`},
		{name: "help", args: []string{"--help"}, stdout: "Usage: benchspec <command>"},
		{name: "help command", args: []string{"help", "schema"}, stdout: "Usage: benchspec schema"},
		{name: "validate help", args: []string{"validate", "--help"}, stdout: "Usage: benchspec validate SPEC..."},
		{name: "schema help", args: []string{"schema", "-h"}, stdout: "Usage: benchspec schema [spec|result|history|comparison|ab]"},
		{name: "compare help", args: []string{"compare", "--help"}, stdout: "(--correction holm, the default) keeps the chance of any false regression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(tt.args, &stdout, &stderr); got != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.status, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) || (tt.stdout == "" && stdout.Len() > 0) {
				t.Errorf("stdout = %q, want it to contain %q", stdout.String(), tt.stdout)
			}
			if tt.jsonStdout && !json.Valid(stdout.Bytes()) {
				t.Errorf("stdout is not valid JSON:\n%s", stdout.String())
			}
			if tt.stderr != nil {
				got := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
				if diff := cmp.Diff(tt.stderr, got); diff != "" {
					t.Errorf("stderr mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestUsageErrors checks that every misuse exits 2 with a message on
// stderr and nothing on stdout: without a command, the usage; otherwise
// what is wrong and where the usage is, in two lines, so that the
// message stays on screen.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "Usage: benchspec <command>"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"rn"}, `unknown command "rn"; did you mean "run"?`},
		{[]string{"report", "--fromat", "json"}, "flag provided but not defined: -fromat; did you mean --format?"},
		{[]string{"validate"}, "benchspec validate: no spec files given"},
		{[]string{"validate", "--bogus", goodSpec}, "flag provided but not defined: -bogus"},
		{[]string{"schema", "nope"}, `benchspec schema: unknown schema "nope" (want spec, result, history, comparison or ab)`},
		{[]string{"schema", "spec", "result"}, "want at most one schema name, got 2"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if got := run(tt.args, &stdout, &stderr); got != exitUsage {
			t.Errorf("run(%q) = %d, want %d", tt.args, got, exitUsage)
		}
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if tt.args == nil {
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("run(%q): stderr = %q, want %q", tt.args, stderr.String(), tt.want)
			}
		} else if !strings.Contains(stderr.String(), tt.want) || len(lines) != 2 || !strings.HasSuffix(lines[1], "for usage.") {
			t.Errorf("run(%q): stderr = %q, want %q and where the usage is, in two lines", tt.args, stderr.String(), tt.want)
		}
		if stdout.Len() > 0 {
			t.Errorf("run(%q): stdout = %q, want nothing", tt.args, stdout.String())
		}
	}
}
