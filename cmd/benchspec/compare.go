package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/benchspec/benchspec/internal/cli"
	"github.com/benchspec/benchspec/report/compare"
)

func runCompare(e *cli.Env, args []string) int {
	fs := e.Flags("compare BASE.json NEW.json [--threshold 5%] [--format text|markdown|json]",
		"Compare pairs the runs of two JSON reports by benchmark, params and mode,\n"+
			"and shows per pair the change of the score, its confidence interval, the\n"+
			"p-value of Welch's t-test on the fork means (forks are the unit: a fork's\n"+
			"iterations share its process) and that of a Mann-Whitney U (rank) test on\n"+
			"the same fork means. A change whose confidence interval (at 1-alpha) lies\n"+
			"wholly beyond the threshold, in the direction the unit calls worse (lower\n"+
			"for ops/time, higher for time/op), and whose rank test is significant too,\n"+
			"is a regression; wholly within it, unchanged; otherwise inconclusive (\"no\n"+
			"change shown\" when not significant), with the forks a side that would\n"+
			"decide it. With --threshold 0 nothing is unchanged: no interval lies\n"+
			"within ±0. The rank test guards against fork means that are not normal\n"+
			"(a process landing in a fast or a slow state), but its p cannot go below\n"+
			"0.1 with 3 forks a side: with the default 3 forks compare gives no\n"+
			"regression or improvement. Run at least 4 forks a side, 5 recommended\n"+
			"(JMH's default).\n"+
			"Runs on one side only are listed. Forks that ran back to back share the\n"+
			"machine's state of those seconds: run batches meant for compare with\n"+
			"--order interleaved (a side in declared order gets a note). It exits 1\n"+
			"when a run regressed or failed in NEW, 2 on bad usage or an unreadable\n"+
			"report, and 0 otherwise.")
	threshold := fs.String("threshold", "5%", "smallest change that counts, in percent (the % is optional); the confidence interval must lie beyond it")
	alpha := fs.Float64("alpha", compare.DefaultAlpha, "significance level of both tests (Welch's t-test and the rank test)")
	format := fs.String("format", "text", "output format: "+strings.Join(compare.Formats, ", "))
	out := fs.String("out", "", "write to this file instead of stdout")
	files, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	if len(files) != 2 {
		return e.UsageError("want two JSON reports, BASE and NEW, got %d", len(files))
	}
	t, err := parsePercent(*threshold)
	if err != nil {
		return e.UsageError("--threshold: %v", err)
	}
	if !(*alpha > 0 && *alpha < 1) { // NaN too
		return e.UsageError("--alpha: %g is not between 0 and 1", *alpha)
	}
	if !validFormat(*format, compare.Formats) {
		return e.UsageError("--format: unknown format %q (valid: %s)", *format, strings.Join(compare.Formats, ", "))
	}
	base, err := readReport(files[0], os.Stdin)
	if err != nil {
		return e.Fail(err)
	}
	next, err := readReport(files[1], os.Stdin)
	if err != nil {
		return e.Fail(err)
	}
	res := compare.Compare(base, next, compare.Options{Threshold: t, Alpha: *alpha})
	res.BaseName, res.NewName = files[0], files[1]
	if err := cli.WriteOutput(*out, e.Stdout, func(w io.Writer) error { return compare.Write(w, res, *format) }); err != nil {
		return e.Fail(err)
	}
	if res.Worse() {
		return exitFail
	}
	return exitOK
}

// parsePercent reads "5%" or "5" as 0.05.
func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v >= 0 && v < math.Inf(1)) {
		return 0, fmt.Errorf("%q is not a percentage such as 5%%", s)
	}
	return v / 100, nil
}

func validFormat(format string, valid []string) bool {
	for _, v := range valid {
		if v == format {
			return true
		}
	}
	return false
}
