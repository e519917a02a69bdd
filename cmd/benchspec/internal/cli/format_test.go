package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
)

// TestRunFormats: --format takes report/format's names and the
// registry's own (benchspec adds html); anything else is an error that
// lists them all.
func TestRunFormats(t *testing.T) {
	page := fakeRenderer{}
	reg := Registry{Formats: map[string]format.Renderer{"html": page}}
	if r, err := reg.renderer("html"); err != nil || r != format.Renderer(page) {
		t.Errorf("renderer(html) with html registered = %v, %v", r, err)
	}
	for _, name := range format.Names() {
		if r, err := (Registry{}).renderer(name); err != nil || r == nil {
			t.Errorf("renderer(%q) = %v, %v", name, r, err)
		}
	}
	_, err := reg.renderer("xml")
	if err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "csv, gobench, html, jmh, json, markdown, text") {
		t.Errorf("renderer(xml) error = %v, want one naming the valid formats", err)
	}
	var stdout, stderr bytes.Buffer
	if code := Suite(context.Background(), []string{"run", "--format", "xml", "no-such-spec.yaml"}, registry, &stdout, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "csv, gobench, jmh, json, markdown, text") {
		t.Errorf("run --format xml: exit %d, stderr:\n%s", code, stderr.String())
	}
}

type fakeRenderer struct{}

func (fakeRenderer) Render(io.Writer, *report.Report) error { return nil }

// Suite runs one of the SpecCommands and returns its exit status.
func Suite(ctx context.Context, args []string, reg Registry, stdout, stderr io.Writer) int {
	p := &Program{Name: ProgName(), Commands: SpecCommands(ctx, reg), Footer: Footer}
	return p.Run(args, stdout, stderr)
}
