package cli

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/format"
)

// TestRunFormats: run's --format takes the registry's formats
// (benchspec adds html), report/format's alone by default; anything else
// is an error that lists them all.
func TestRunFormats(t *testing.T) {
	page := fakeRenderer{}
	reg := Registry{Formats: format.List{"html": page, "text": format.Text{}}}
	if names := format.Names[format.Renderer](reg.formats()); !slices.Equal(names, []string{"html", "text"}) {
		t.Errorf("formats with html registered: %v", names)
	}
	if names := format.Names[format.Renderer](Registry{}.formats()); !slices.Equal(names, format.Names[format.Renderer](format.Builtin())) {
		t.Errorf("formats by default: %v, want report/format's", names)
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
