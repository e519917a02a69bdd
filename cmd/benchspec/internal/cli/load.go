package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/benchspec/benchspec/executor/gotest"
	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// load is the one way every command reads specs: it parses them (files,
// and directories of *.yaml files: see specFiles) and, when there is a
// registry (a suite's, or the package benchmarks), builds one plan of
// them all. It prints every
// problem as path:line:col: message, grouped by file in the order given,
// and a summary line; with verbose (validate), "path: ok (N entries)"
// for every valid file and the summary also when all is well. ok is
// false when there were problems. Without a registry, specs are checked
// as specs (schema and semantics) and the plan is nil.
//
// A `package:` entry may name only a package of the module that holds its
// spec, or of the standard library (gotest.CheckPackageScope), unless
// opts.allowOutside; a spec that names another is refused before any
// package is built. Without opts.listPackages, or for specs with errors,
// nothing of a package is built or run: its entries are checked as
// entries (plan.CheckPackageEntries) and left out of the plan.
func load(ctx context.Context, e *Env, paths []string, reg *Registry, opts *loadOpts) (*plan.Plan, bool) {
	verbose := opts.verbose
	if len(paths) == 0 {
		e.UsageError("no spec files given")
		return nil, false
	}
	paths, err := specFiles(paths)
	if err != nil {
		e.Errorf("%v", err)
		return nil, false
	}
	var specs []*spec.Spec
	byFile := map[string][]error{}
	var other []error // problems without a position in a file given
	entries := map[string]int{}
	built := map[string][]string{} // the names of each spec's builds
	partial := 0                   // specs with errors, checked against the registry without them
	for _, path := range paths {
		s, err := spec.ParseFilePartial(path)
		if err != nil {
			byFile[path] = append(byFile[path], err)
			if s == nil || reg == nil {
				continue
			}
			partial++
		}
		entries[path] = len(s.Entries)
		if opts.paired {
			s.UsePairedDefaults()
		}
		for _, b := range s.Builds {
			built[path] = append(built[path], b.Name)
		}
		specs = append(specs, s)
	}
	var p *plan.Plan
	var scoped spec.ErrorList
	for _, s := range specs {
		for _, en := range s.Entries {
			if en.Package != "" {
				opts.packages++
			}
		}
	}
	if !opts.allowOutside {
		scoped = gotest.CheckPackageScope(specs)
	}
	scoped = append(scoped, gotest.CheckBuildScope(specs)...)
	builds, conflicts := batchBuilds(specs)
	scoped = append(scoped, conflicts...)
	if !opts.listPackages || partial > 0 {
		// Not listed: checked as entries.
		scoped = append(scoped, plan.CheckPackageEntries(specs)...)
	}
	slices.SortStableFunc(scoped, func(a, b *spec.Error) int {
		return cmp.Or(strings.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	for _, pe := range scoped {
		byFile[pe.Pos.File] = append(byFile[pe.Pos.File], pe)
	}
	if len(specs) == len(paths) && reg != nil && len(scoped) == 0 {
		var err error
		planned := specs
		if opts.packagesOnly {
			planned = plan.OnlyPackages(specs)
		}
		switch {
		case opts.packagesOnly && (partial > 0 || opts.packages == 0):
			// Nothing to check beyond the entries: no suite for the
			// registered ones, no listing of a spec with errors.
		case opts.listPackages && partial == 0 && (opts.packages > 0 || !opts.listForPackages):
			var benchmarks []plan.Benchmark
			start := time.Now()
			benchmarks, err = withPackages(ctx, planned, *reg)
			if d := time.Since(start); err == nil && d >= time.Second && !opts.quiet && (len(builds) > 0 || opts.packages > 0) {
				// Not in the estimate, which is of the runs: say where
				// the time went before the estimate is printed.
				fmt.Fprintf(e.Stderr, "# %s built and listed in %s (cached for the next run; not in the estimate)\n",
					builtWhat(len(builds), opts.packages), d.Round(100*time.Millisecond))
			}
			if err == nil {
				p, err = plan.Build(planned, benchmarks)
			}
		default:
			p, err = plan.Build(plan.WithoutPackages(specs), asBuilt(specs, reg.Benchmarks))
		}
		if list := spec.Errors(err); list != nil {
			for _, pe := range list {
				if _, ok := entries[pe.Pos.File]; ok {
					byFile[pe.Pos.File] = append(byFile[pe.Pos.File], pe)
				} else {
					other = append(other, pe)
				}
			}
		} else if err != nil {
			other = append(other, err)
		}
		if partial > 0 || opts.packagesOnly && !slices.Equal(planned, specs) {
			p = nil // of specs without their errors or entries: a check, not a plan
		}
	}
	if ctx.Err() != nil {
		// A build or listing cut short fails because of the signal,
		// not of the specs: no spec error is printed for it.
		e.Errorf("%v while building and listing; nothing ran", context.Cause(ctx))
		return nil, false
	}
	n := 0
	for _, path := range paths {
		for _, err := range byFile[path] {
			n += spec.PrintErrors(termsafe.Writer(e.Stderr), err) // paths and values quoted from input
		}
		if len(byFile[path]) == 0 && verbose {
			what := plural(entries[path], "entry", "entries")
			if b := built[path]; len(b) > 0 {
				what += ", " + plural(len(b), "build", "builds") + ": " + strings.Join(b, ", ")
			}
			fmt.Fprintf(e.Stderr, "%s: ok (%s)\n", path, what)
		}
	}
	for _, err := range other {
		n += spec.PrintErrors(e.Stderr, err)
	}
	if n > 0 || verbose {
		fmt.Fprintln(e.Stderr, spec.Summary(len(paths), n))
	}
	return p, n == 0
}

// loadOpts are how a command loads its specs.
type loadOpts struct {
	// verbose prints "path: ok" for every valid file (validate).
	verbose bool
	// allowOutside lifts the package scope check
	// (--allow-packages-outside-module).
	allowOutside bool
	// listPackages builds the test binaries of `package:` entries and
	// lists their benchmarks, so that an include that matches nothing
	// is found (plan, run, validate).
	listPackages bool
	// packagesOnly plans only the `package:` entries: there is no suite
	// to check the others against (validate without --suite).
	packagesOnly bool
	// listForPackages builds and lists only for specs with `package:`
	// entries, whose includes only a listing can check; the builds of
	// other specs are checked as the suite given (asBuilt), not built
	// (validate).
	listForPackages bool
	// quiet leaves out the note of how long that took (run --quiet).
	quiet bool
	// paired gives entries ab's settings where the spec sets none
	// (spec.PairedDefaults).
	paired bool

	// packages is set by load: the number of `package:` entries.
	packages int
}

// allowOutsideFlag registers --allow-packages-outside-module on run, plan
// and validate.
func allowOutsideFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("allow-packages-outside-module", false,
		"let package: entries name packages outside the module that holds their spec (another module, an absolute path); "+
			"without it a spec runs only its own module's packages and the standard library")
}

// builtWhat names what load builds before the plan: "3 builds and test
// binaries of 2 package entries".
func builtWhat(builds, packages int) string {
	var what []string
	if builds > 0 {
		what = append(what, plural(builds, "build", "builds"))
	}
	if packages > 0 {
		what = append(what, "test binaries of "+plural(packages, "package entry", "package entries"))
	}
	s := strings.Join(what, " and ")
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// suiteFlag registers --suite on the commands that read specs; its
// default is the suite binary that handed its command line over
// (handedSuite).
func suiteFlag(fs *flag.FlagSet) *string {
	return fs.String("suite", handedSuite(),
		"the suite whose registered benchmarks the specs select: a `binary`, or a main package calling benchspec.Main (./bench), which benchspec builds")
}

// specFiles expands the spec arguments of run, validate and plan: a
// directory stands for the *.yaml files directly inside it, sorted by
// name (a nightly batch keeps its specs in one directory); anything else
// is a spec file, whose problems spec.ParseFile reports. A file named
// twice, directly or through its directory, counts once, at its first
// place. The specs' order is the plan's order.
func specFiles(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(path string) {
		if key := filepath.Clean(path); !seen[key] {
			seen[key] = true
			out = append(out, path)
		}
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil || !fi.IsDir() {
			add(arg)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(arg, "*.yaml"))
		if err != nil {
			return nil, err
		}
		var files []string
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && !fi.IsDir() {
				files = append(files, m)
			}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: a directory without spec files (*.yaml)", arg)
		}
		sort.Strings(files)
		for _, f := range files {
			add(f)
		}
	}
	return out, nil
}
