package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

func TestBarLine(t *testing.T) {
	for _, tc := range []struct {
		done, all int
		want      string
	}{
		{0, 4, "  0% [                        ] (0/4) d"},
		{1, 4, " 25% [██████                  ] (1/4) d"},
		{1, 3, " 33% [████████                ] (1/3) d"},
		{1, 7, " 14% [███▍                    ] (1/7) d"},
		{4, 4, "100% [████████████████████████] (4/4) d"},
		{0, 0, "  0% [                        ] (0/1) d"},
	} {
		if got := barLine(tc.done, tc.all, "d"); got != tc.want {
			t.Errorf("barLine(%d, %d) = %q, want %q", tc.done, tc.all, got, tc.want)
		}
	}
}

// The bar redraws its line in place, puts a failed fork on a line of its
// own above it, and ends with the batch's summary and a newline.
func TestBarDrawsForksAndFailures(t *testing.T) {
	r := plan.Run{Key: "x:avgt", Settings: spec.Settings{Forks: 2}}
	p := &plan.Plan{Runs: []plan.Run{r}}
	var out bytes.Buffer
	b := newBar(&out, p)
	b.ForkStart(&p.Runs[0], 1, 2, false, 0, 2)
	b.ForkEnd(&p.Runs[0], &protocol.ForkResult{Fork: 1})
	b.ForkStart(&p.Runs[0], 2, 2, false, 1, 2)
	b.ForkEnd(&p.Runs[0], &protocol.ForkResult{Fork: 2, Err: "boom\nstack"})
	b.close()
	got := out.String()
	for _, want := range []string{"(0/2) ETA", "x:avgt fork 1 of 2", "\r\x1b[Kx:avgt fork 2 of 2 FAILED: boom\n", "(2/2) 2 of 2 forks in", "\x1b[K\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%q", want, got)
		}
	}
	if strings.Contains(got, "stack") {
		t.Errorf("output holds more than the error's first line:\n%q", got)
	}
}
