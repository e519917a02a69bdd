package compare

import (
	"bytes"
	"strings"
	"testing"
)

// TestCompareNotesEnvironmentAndIncomplete: reports from another CPU or
// Go version, or an incomplete batch, are compared with a note that
// says so, in every format; alike and complete reports get none.
func TestCompareNotesEnvironmentAndIncomplete(t *testing.T) {
	base, next := load(t, baseFile), load(t, rerunFile)
	for _, n := range Compare(base, next, Options{Threshold: 0.05}).Notes {
		if strings.Contains(n, "environments") || strings.Contains(n, "incomplete") {
			t.Errorf("alike reports: note %q", n)
		}
	}
	next.Env.CPU, next.Env.GoVersion = "Other CPU @ 5.00GHz", "go1.99.0"
	next.Complete = false
	res := Compare(base, next, Options{Threshold: 0.05})
	var text bytes.Buffer
	if err := Write(&text, res, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"the sides ran in different environments (CPU " + base.Env.CPU + " in base, Other CPU @ 5.00GHz in new; Go version " + base.Env.GoVersion + " in base, go1.99.0 in new)",
		"new is incomplete (complete: false)",
	} {
		if !strings.Contains(strings.Join(res.Notes, "\n"), want) || !strings.Contains(text.String(), want) {
			t.Errorf("notes %q and text output lack %q", res.Notes, want)
		}
	}
}
