package main

import (
	"fmt"
	"io"
	"os"

	"github.com/benchspec/benchspec/report"
)

// readReport reads the JSON report at path; "-" is stdin.
func readReport(path string, stdin io.Reader) (*report.Report, error) {
	if path == "-" {
		rep, err := report.Read(stdin)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return rep, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := report.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}
