package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/internal/format"
	"github.com/benchspec/benchspec/report"
)

// TestRunRefusesHTML: a suite binary does not link the HTML renderer, so
// `run --format html` fails as bad usage, before any spec is read, and
// says how to get the page.
func TestRunRefusesHTML(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Suite(context.Background(), []string{"run", "--format", "html", "no-such-spec.yaml"}, registry, &stdout, &stderr)
	msg := stderr.String()
	if code != 2 || !strings.Contains(msg, "--format json --out r.json") ||
		!strings.Contains(msg, "benchspec report --format html r.json") || strings.Contains(msg, "no-such-spec") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and how to get HTML, before the spec is read", code, msg)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %s", stdout.String())
	}
}

// TestRunFormats: --format takes internal/format's names and the
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
