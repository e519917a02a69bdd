package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// A command's outputs are checked before it does any work (before a
// batch measures anything): an output that cannot be written would lose
// the batch at its end, and an output that is one of the command's
// inputs — the spec, the journal it resumes, the suite binary — or
// another of its outputs would be destroyed by it. Paths are compared as
// the files they resolve to (symbolic links followed, os.SameFile where
// the file exists), never as strings.

// NamedPath is a file a command reads or writes, and what names it in
// messages ("--out", "the spec").
type NamedPath struct {
	What, Path string
}

// CheckOutputPath reports, before anything is measured, why the output
// path (named by what) could not be written: a directory, a directory
// that does not exist or is not writable, a link into one. A device or a
// FIFO is written in place (WriteOutput) and is not probed: a FIFO's
// reader may come later. "" is stdout and always fine.
func CheckOutputPath(what, path string) error {
	if path == "" {
		return nil
	}
	target, replace, err := outputTarget(path)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, path, err)
	}
	if !replace {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return fmt.Errorf("%s %s is a directory; name a file to write", what, path)
		}
		return nil
	}
	dir := filepath.Dir(target)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: the directory %s does not exist", what, path, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %w", what, path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", what, path, dir)
	}
	// Writable? The report is written as a temporary file in dir and
	// renamed, so that is what is tried.
	probe, err := os.CreateTemp(dir, ".benchspec-probe-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in %s: %w", what, path, dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// CheckOverwrite reports the first output that would replace one of the
// inputs or another output. Outputs written in place (devices, FIFOs,
// /dev/stdout) replace nothing and are not compared; empty paths are
// skipped.
func CheckOverwrite(inputs, outputs []NamedPath) error {
	var replaced []NamedPath
	for _, o := range outputs {
		if o.Path == "" {
			continue
		}
		target, replace, err := outputTarget(o.Path)
		if err != nil || !replace {
			continue
		}
		for _, in := range inputs {
			if in.Path != "" && sameFile(target, in.Path) {
				return fmt.Errorf("%s %s is %s (%s): it would be overwritten; write the output elsewhere", o.What, o.Path, in.What, in.Path)
			}
		}
		for _, prev := range replaced {
			if sameFile(target, prev.Path) {
				return fmt.Errorf("%s %s and %s %s are the same file: one would overwrite the other", prev.What, prev.Path, o.What, o.Path)
			}
		}
		replaced = append(replaced, NamedPath{o.What, target})
	}
	return nil
}

// sameFile reports whether the paths a and b name the same file: the
// same file where both exist, else the same resolved path.
func sameFile(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(fa, fb)
	}
	return resolvedPath(a) == resolvedPath(b)
}

// resolvedPath is path absolute, with the symbolic links of its
// directory resolved (the file itself may not exist yet).
func resolvedPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(real, base)
	}
	return abs
}

// runInputs are the files run reads: the suite binary (exe, or this
// process's), the journal it resumes and the specs.
func runInputs(exe, resume string, specs []string) []NamedPath {
	if exe == "" {
		exe, _ = os.Executable()
	}
	in := []NamedPath{{"the suite binary", exe}, {"the journal to resume", resume}}
	for _, s := range specs {
		in = append(in, NamedPath{"the spec", s})
	}
	return in
}

// checkRunOutputs is run's check of its outputs before it loads and
// builds anything: --out writable, and neither --out nor the journal
// (--journal, or the REPORT.journal beside --out) an input or each other.
// The journal of a device's report, named after the suite, is checked
// again with the plan (resultsDir.outputs).
func checkRunOutputs(inputs []NamedPath, out, journalFlag, resume string) error {
	if err := CheckOutputPath("--out", out); err != nil {
		return err
	}
	outputs := []NamedPath{{"--out", out}}
	switch {
	case resume != "":
		// The journal resumed is appended to: an input, not replaced.
	case journalFlag != "":
		if err := CheckOutputPath("--journal", journalFlag); err != nil {
			return err
		}
		if err := checkJournalPath("--journal", journalFlag); err != nil {
			return err
		}
		outputs = append(outputs, NamedPath{"--journal", journalFlag})
	case out != "" && IsReplaced(out):
		outputs = append(outputs, NamedPath{"the journal", out + ".journal"})
	}
	return CheckOverwrite(inputs, outputs)
}

// outputs are the files a batch writes, for CheckOverwrite: the report
// (out), the journal (jpath) unless it is the one resumed, and the
// results directory's report and latest copy.
func (rd *resultsDir) outputs(out, jpath, resume string) []NamedPath {
	o := []NamedPath{{"--out", out}}
	if jpath != resume {
		o = append(o, NamedPath{"the journal", jpath})
	}
	if rd != nil {
		o = append(o, NamedPath{"the results directory's report", rd.report}, NamedPath{"the results directory's latest report", rd.latest})
	}
	return o
}

// checkProfileNames refuses a batch two of whose runs would write their
// profiles to one file (protocol.ProfileFile: the key made safe for a
// file name, then a hash of it): one would overwrite the other.
func checkProfileNames(p *plan.Plan) error {
	seen := map[string]string{}
	for i := range p.Runs {
		key := p.Runs[i].Key
		base := protocol.ProfileBase(key)
		if other, ok := seen[base]; ok && other != key {
			return fmt.Errorf("the runs %q and %q would write their profiles to the same files (%s.*.pprof); run them in separate batches", other, key, base)
		}
		seen[base] = key
	}
	return nil
}

// checkJournalPath refuses a new journal's path (named by what) where
// something other than a regular file is: a journal is created by
// renaming a file over its path, then read back to resume, so a device
// or FIFO there (--journal /dev/null, as root) would be replaced, and
// could not resume.
func checkJournalPath(what, path string) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %s is not a regular file: a journal is a file a batch can be resumed from; name one", what, path)
	}
	return nil
}
