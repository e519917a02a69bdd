package format

import (
	"github.com/benchspec/benchspec/report"

	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSV writes one CSV record per table row (RFC 4180), with JMH's
// `-rf csv` columns first — "Benchmark", "Mode", "Threads", "Samples",
// "Score", "Score Error (99.9%)", "Unit", then "Param: name" for every
// parameter name — followed by "Status" and "Error". Numbers are written
// with full precision; a number that does not exist (an error with one
// sample, a failed run's score) is an empty field, where JMH writes NaN.
// Unlike JMH, failed runs are kept, with status "failed" and the reason.
type CSV struct{}

// Render writes r as CSV to w.
func (CSV) Render(w io.Writer, r *report.Report) error {
	names := ParamNames(r.Runs)
	cw := csv.NewWriter(w)
	header := []string{"Benchmark", "Mode", "Threads", "Samples", "Score", "Score Error (99.9%)", "Unit"}
	for _, n := range names {
		header = append(header, "Param: "+n)
	}
	records := [][]string{append(header, "Status", "Error")}

	rows, _ := Rows(r)
	for _, row := range rows {
		rec := []string{row.Name, row.Run.Mode.String(), strconv.Itoa(row.Run.Threads), "", "", "", row.Unit()}
		if m := row.Metric; m != nil {
			rec[3], rec[4], rec[5] = strconv.Itoa(m.Count), csvNumber(m.Score), csvNumber(m.ScoreError)
		}
		for _, n := range names {
			rec = append(rec, row.Run.Params[n])
		}
		records = append(records, append(rec, row.Run.Status, row.Run.Outcome()))
	}
	for _, rec := range records {
		for i := range rec {
			rec[i] = CSVCell(rec[i])
		}
	}
	if err := cw.WriteAll(records); err != nil {
		return err
	}
	return cw.Error()
}

// CSVCell keeps a cell from being read as a formula by a spreadsheet
// (CSV injection): a text cell that begins with =, +, -, @, a tab or a
// carriage return gets a leading ', as OWASP advises. A number such as
// -1.5 or 1e-9 is left alone: it is data, and the ' would make it text.
func CSVCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "nNiI") {
		return s // a finite number written by strconv (not "-Inf", "+NaN")
	}
	return "'" + s
}

// csvNumber writes f with the fewest digits that read back exactly, or ""
// when f does not exist.
func csvNumber(f report.Float) string {
	if !f.Valid() {
		return ""
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 64)
}
