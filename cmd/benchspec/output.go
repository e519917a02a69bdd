package main

import (
	"fmt"
	"io"
	"os"

	"github.com/benchspec/benchspec/internal/cli"
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

// outputOK checks --out before anything is read (cli.CheckOutputPath,
// cli.CheckOverwrite): it is written, and it is none of the input files
// (report --format text --out r.json r.json would replace the JSON with
// its table). It prints why not and returns false.
func outputOK(e *cli.Env, out string, inputs ...string) bool {
	if err := cli.CheckOutputPath("--out", out); err != nil {
		e.Errorf("%v", err)
		return false
	}
	var in []cli.NamedPath
	for _, p := range inputs {
		if p != "-" {
			in = append(in, cli.NamedPath{What: "an input", Path: p})
		}
	}
	if err := cli.CheckOverwrite(in, []cli.NamedPath{{What: "--out", Path: out}}); err != nil {
		e.Errorf("%v", err)
		return false
	}
	return true
}
