package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/history"
)

// JSON writes the model itself as indented JSON with a trailing newline:
// a report as report.Write does (the lossless format, described by
// schemas/result.schema.json and read back by report.Read), a comparison
// as compare.Result (numbers that do not exist are null), ab's as
// {"comparison", "base", "new"}, a history as history.History
// (schemas/history.schema.json).
type JSON struct{}

// Render writes r as JSON to w.
func (JSON) Render(w io.Writer, r *report.Report) error { return report.Write(w, r) }

// Comparison writes c as JSON to w.
func (JSON) Comparison(w io.Writer, c *compare.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(c)
}

// AB writes the comparison and both reports as one JSON object.
func (j JSON) AB(w io.Writer, c *compare.Result, base, next *report.Report) error {
	var parts [3]bytes.Buffer
	err := j.Comparison(&parts[0], c)
	if err == nil {
		err = report.Write(&parts[1], base)
	}
	if err == nil {
		err = report.Write(&parts[2], next)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "{\n\"comparison\": %s,\n\"base\": %s,\n\"new\": %s}\n",
		bytes.TrimSpace(parts[0].Bytes()), bytes.TrimSpace(parts[1].Bytes()), bytes.TrimSpace(parts[2].Bytes()))
	return err
}

// History writes h as JSON to w.
func (JSON) History(w io.Writer, h *history.History) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(h); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}
