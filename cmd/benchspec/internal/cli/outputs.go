package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// The rule for every output of every command that writes (run, ab,
// report, compare, merge, history, in every format): no output replaces
// one of the command's inputs, or another of its outputs, and none is
// written through a symbolic link.
//
//   - Checked before the command does any work (CheckOutputs, or
//     Env.OutputsOK, which prints why not): an output that cannot be
//     written would lose a batch at its end, and one that is an input —
//     the spec, the report read, the journal resumed, the suite binary,
//     a results directory's report — would be destroyed by it. Paths are
//     compared as the files they are (os.SameFile, through links, hard
//     links included), never as strings; an output not yet created, by
//     its resolved path.
//   - A symbolic link where an output goes is refused, not followed and
//     not replaced (outputKind), except a chain through /proc
//     (/dev/stdout, a shell's >(…)), which names an open file the user
//     chose. Refused rather than replaced: a link there was put by
//     someone, and the user learns of it rather than losing it.
//   - Written as a temporary file in the output's directory, renamed
//     over the path (WriteOutput): the rename never follows a link.
//
// Inputs a command only names by directory (the reports history reads)
// are checked by the command (CheckOutsideResults).

// NamedPath is a file a command reads or writes, and what names it in
// messages ("--out", "the spec").
type NamedPath struct {
	What, Path string
}

// Inputs names each of paths (files a command reads) as what; "" and "-"
// (stdin) are left out.
func Inputs(what string, paths ...string) []NamedPath {
	var in []NamedPath
	for _, p := range paths {
		if p != "" && p != "-" {
			in = append(in, NamedPath{what, p})
		}
	}
	return in
}

// CheckOutputs reports, before a command does any work, why one of its
// outputs could not be written (CheckOutputPath) or must not be
// (CheckOverwrite).
func CheckOutputs(inputs, outputs []NamedPath) error {
	for _, o := range outputs {
		if err := CheckOutputPath(o.What, o.Path); err != nil {
			return err
		}
	}
	return CheckOverwrite(inputs, outputs)
}

// OutputsOK is CheckOutputs for a command: it prints why an output is
// refused and returns false (the command then exits ExitUsage).
func (e *Env) OutputsOK(inputs []NamedPath, outputs ...NamedPath) bool {
	if err := CheckOutputs(inputs, outputs); err != nil {
		e.Errorf("%v", err)
		return false
	}
	return true
}

// CheckOutputPath reports, before anything is measured, why the output
// path (named by what) could not be written: a directory, a directory
// that does not exist or is not writable, a symbolic link (outputKind).
// A device or a FIFO is written in place (WriteOutput) and is not probed:
// a FIFO's reader may come later. "" is stdout and always fine.
func CheckOutputPath(what, path string) error {
	if path == "" {
		return nil
	}
	replace, err := outputKind(what, path)
	if err != nil {
		return err
	}
	if !replace {
		return nil
	}
	dir := filepath.Dir(path)
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

// CheckOverwrite reports the first output that is a symbolic link
// (outputKind), or would replace one of the inputs or another output.
// Outputs written in place (devices, FIFOs, /dev/stdout) replace nothing
// and are not compared; empty paths, and inputs that do not exist (there
// is nothing to lose), are skipped.
func CheckOverwrite(inputs, outputs []NamedPath) error {
	var replaced []NamedPath
	for _, o := range outputs {
		if o.Path == "" {
			continue
		}
		replace, err := outputKind(o.What, o.Path)
		if err != nil {
			return err
		}
		if !replace {
			continue
		}
		for _, in := range inputs {
			if _, err := os.Stat(in.Path); err == nil && sameFile(o.Path, in.Path) {
				return fmt.Errorf("%s %s is %s (%s): it would be overwritten; write the output elsewhere", o.What, o.Path, in.What, in.Path)
			}
		}
		for _, prev := range replaced {
			if sameFile(o.Path, prev.Path) {
				return fmt.Errorf("%s %s and %s %s are the same file: one would overwrite the other", prev.What, prev.Path, o.What, o.Path)
			}
		}
		replaced = append(replaced, o)
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
// process's), the journal it resumes and the specs (a directory's too).
func runInputs(exe, resume string, specs []string) []NamedPath {
	if exe == "" {
		exe, _ = os.Executable()
	}
	if files, err := specFiles(specs); err == nil {
		specs = files
	}
	in := []NamedPath{{"the suite binary", exe}, {"the journal to resume", resume}}
	return append(in, Inputs("the spec", specs...)...)
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
// could not resume; a link would be read through, then replaced.
func checkJournalPath(what, path string) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %s is %s, not a regular file: a journal is a file a batch can be resumed from; name one", what, path, filehash.Kind(fi.Mode()))
	}
	return nil
}
