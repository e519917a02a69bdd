package main

import (
	"fmt"
	"io"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report"
)

// readReport reads the JSON report at path (report.ReadFile: a regular
// file of at most report.MaxBytes, refused before it is read otherwise);
// "-" is stdin, bounded alike.
func readReport(path string, stdin io.Reader) (*report.Report, error) {
	if path == "-" {
		rep, err := report.Read(stdin)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return rep, nil
	}
	return report.ReadFile(path)
}

// outputOK checks --out before anything is read (cli.Env.OutputsOK): it
// can be written, it is no symbolic link, and it is none of the reports
// read (report --format text --out r.json r.json would replace the JSON
// with its table). It prints why not and returns false.
func outputOK(e *cli.Env, out string, reports ...string) bool {
	return e.OutputsOK(cli.Inputs("the report read", reports...), cli.NamedPath{What: "--out", Path: out})
}
