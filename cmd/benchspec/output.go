package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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

// writeOutput calls write with stdout when path is "", and otherwise with
// a temporary file beside path that replaces path once complete, so that
// a failed write never leaves half a file behind.
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".benchspec-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	// CreateTemp makes the file private; the output is not
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
