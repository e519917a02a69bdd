package main

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/report/compare"
	"github.com/benchspec/benchspec/report/format"
)

func runCompare(e *cli.Env, args []string) int {
	fs := e.Flags("compare BASE.json NEW.json | --builds BASE,NEW REPORT.json [--threshold 5%] [--format text|markdown|json]",
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
			"within ±0. The runs of one comparison are one family: Holm's correction\n"+
			"(--correction holm, the default) keeps the chance of any false regression\n"+
			"or improvement among all of them at alpha, where judging each at alpha\n"+
			"would raise one most of the time with 50 runs. The rank test guards\n"+
			"against fork means that are not normal (a process landing in a fast or a\n"+
			"slow state) where it can reach the level the family needs; where it\n"+
			"cannot (its p never goes below 0.1 with 3 forks a side), it would veto\n"+
			"every verdict, so Welch's test decides alone and the output says so.\n"+
			"Runs on one side only are listed. Forks that ran back to back share the\n"+
			"machine's state of those seconds: run batches meant for compare with\n"+
			"--order interleaved (a side in declared order gets a note). With --builds,\n"+
			"one report's two builds (a spec's builds:) are BASE and NEW. It exits 1\n"+
			"when a run regressed or failed in NEW, 2 on bad usage or an unreadable\n"+
			"report, and 0 otherwise.")
	threshold := fs.String("threshold", "5%", "smallest change that counts, in percent (the % is optional); the confidence interval must lie beyond it")
	alpha := fs.Float64("alpha", compare.DefaultAlpha, "significance level of both tests (Welch's t-test and the rank test), for the family of all runs")
	correction := fs.String("correction", compare.Holm, "family-wise correction over the runs: "+strings.Join(compare.Corrections, ", "))
	findFormat := cli.FormatFlag[format.ComparisonRenderer](fs, formats())
	out := fs.String("out", "", "write to this file instead of stdout")
	builds := fs.String("builds", "", "compare two builds of one report, `BASE,NEW`: names of its spec's builds")
	explainFlag := fs.Bool("explain", false, "for each regression or improvement, name the functions whose CPU time per op changed most, from the CPU profiles the reports' forks kept (profilers: [cpu] and --profiles)")
	profiles := fs.String("profiles", "", "with --explain, write each explained run's merged base and new CPU profiles into this new or empty `directory` (go tool pprof -diff_base)")
	files, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	baseBuild, newBuild, pair := strings.Cut(*builds, ",")
	switch {
	case *builds != "" && (!pair || baseBuild == "" || newBuild == "" || baseBuild == newBuild):
		return e.UsageError("--builds: want two names of builds, BASE,NEW, got %q", *builds)
	case *builds != "" && len(files) != 1:
		return e.UsageError("--builds compares two builds of one JSON report, got %d", len(files))
	case *builds == "" && len(files) != 2:
		return e.UsageError("want two JSON reports, BASE and NEW, got %d", len(files))
	}
	t, err := cli.ParsePercent(*threshold)
	if err != nil {
		return e.UsageError("--threshold: %v", err)
	}
	if !(*alpha > 0 && *alpha < 1) { // NaN too
		return e.UsageError("--alpha: %g is not between 0 and 1", *alpha)
	}
	if !slices.Contains(compare.Corrections, *correction) {
		return e.UsageError("--correction: unknown correction %q (valid: %s)", *correction, strings.Join(compare.Corrections, ", "))
	}
	if *profiles != "" && !*explainFlag {
		return e.UsageError("--profiles needs --explain")
	}
	if err := cli.NewOrEmptyDir(*profiles); err != nil {
		return e.UsageError("--profiles: %v", err)
	}
	render, err := findFormat()
	if err != nil {
		return e.UsageError("--format: %v", err)
	}
	if !outputOK(e, *out, files...) {
		return exitUsage
	}
	base, err := readReport(files[0], os.Stdin)
	if err != nil {
		return e.Fail(err)
	}
	next, names := base, files
	if whole := base; *builds != "" {
		base, next = whole.OfBuild(baseBuild), whole.OfBuild(newBuild)
		if base == nil || next == nil {
			have := "none: its specs had no builds"
			if b := whole.BuildNames(); len(b) > 0 {
				have = termsafe.String(strings.Join(b, ", ")) // names from a report
			}
			return e.UsageError("--builds %s: the builds of %s are %s", *builds, files[0], have)
		}
		names = []string{files[0] + " build " + baseBuild, files[0] + " build " + newBuild}
	} else if next, err = readReport(files[1], os.Stdin); err != nil {
		return e.Fail(err)
	}
	res := compare.Compare(base, next, compare.Options{Threshold: t, Alpha: *alpha, Correction: *correction})
	res.BaseName, res.NewName = names[0], names[1]
	if *explainFlag {
		if err := cli.ExplainPairs(res, base, next, *profiles); err != nil {
			return e.Fail(err)
		}
	}
	if err := cli.WriteOutput(*out, e.Stdout, func(w io.Writer) error { return render.Comparison(w, res) }); err != nil {
		return e.Fail(err)
	}
	if res.Worse() {
		return exitFail
	}
	return exitOK
}
