package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestErrorLineIsEscaped: a failure message quoted in an error line
// reaches stderr with its escape sequences and carriage returns written
// as visible escapes, never raw (runlog's TestTerminalOutputIsEscaped
// checks the progress displays and the run log).
func TestErrorLineIsEscaped(t *testing.T) {
	const evil = "boom\x1b]0;owned\x07\r\x1b[2Jgone"
	const shown = `boom\x1b]0;owned\x07\r\x1b[2Jgone`
	var errLine bytes.Buffer
	e := &Env{Prog: "benchspec", Cmd: "run", Stderr: &errLine}
	e.Errorf("writing the report: %s", evil)
	if out := errLine.String(); strings.ContainsAny(out, "\x1b\x07\r") || !strings.Contains(out, shown) {
		t.Errorf("error line %q, want the escaped message %q and no raw control character", out, shown)
	}
}
