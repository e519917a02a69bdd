package runlog

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// TestTerminalOutputIsEscaped: a benchmark's name, its failure message
// and its output reach stderr — the progress bar, the plain progress
// lines and the run log — with their escape sequences and carriage
// returns written as visible escapes, never raw.
func TestTerminalOutputIsEscaped(t *testing.T) {
	const evil = "boom\x1b]0;owned\x07\r\x1b[2Jgone"
	const shown = `boom\x1b]0;owned\x07\r\x1b[2Jgone`
	r := plan.Run{Key: "x\x1b[31m:avgt", Benchmark: "x\x1b[31m", Settings: spec.Settings{Forks: 1}}
	p := &plan.Plan{Runs: []plan.Run{r}}
	failed := &protocol.ForkResult{Fork: 1, Err: evil, StderrTail: "out\x1b[1mput\n"}

	var bar bytes.Buffer
	b := newBar(&bar, p)
	b.ForkStart(&p.Runs[0], 1, 1, false, 0, 1)
	b.ForkEnd(&p.Runs[0], failed)
	b.close()
	// The bar draws with \r and ESC [K itself: only what it quotes is checked.
	barOut := strings.NewReplacer("\r\x1b[K", "", "\x1b[K", "", "\r", "").Replace(bar.String())

	var lineOut bytes.Buffer
	l := newLines(&lineOut, p, time.Now)
	l.ForkStart(&p.Runs[0], 1, 1, false, 0, 1)
	l.ForkEnd(&p.Runs[0], failed)

	var log bytes.Buffer
	rl := New(&log, p)
	rl.RunStart(&p.Runs[0])
	rl.ForkStart(&p.Runs[0], 1, 1, false, 0, 1)
	rl.ForkEnd(&p.Runs[0], failed)

	for name, out := range map[string]string{"bar": barOut, "lines": lineOut.String(), "run log": log.String()} {
		if strings.ContainsAny(out, "\x1b\x07\r") {
			t.Errorf("%s holds a raw control character:\n%q", name, out)
		}
		if name == "run log" && !strings.Contains(out, shown) {
			t.Errorf("%s lacks the escaped message %q:\n%s", name, shown, out)
		}
	}
}
