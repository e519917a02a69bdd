package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/history/index"
)

// `run --results-dir DIR` keeps every batch of a suite, as a nightly job
// wants them:
//
//	DIR/<suite>/20260115T023000Z.json          the JSON report of the batch started then (UTC)
//	DIR/<suite>/20260115T023000Z.json.journal  its journal (unless --journal puts it elsewhere)
//	DIR/<suite>/latest.json                    a copy of the newest batch that ended
//	DIR/<suite>/history.index.jsonl            a summary of each report, for benchspec history (a cache)
//
// A shard's files carry its number: 20260115T023000Z-shard-2-of-4.json,
// latest-shard-2-of-4.json. <suite> is the first spec's name.
//
// Nothing is overwritten in place. A batch takes a name no earlier batch
// has (a second batch in the same second gets -2, -3, …) and reserves it
// by creating its journal exclusively; every file is written to a
// temporary file and renamed into place, so a reader sees a whole report
// or none. latest.json is replaced only when a batch ended (ran to the
// end, or was stopped by --fail-on-error): an interrupted batch writes its
// partial report under its own name, and `run --resume` of its journal
// finishes that same report.

// batchFiles decides where the batch's journal goes (see journal.go) and,
// with --results-dir root, the batch's files there. A journal that
// --journal or --resume names wins over the results directory's.
// implicit is true for a journal no flag asked for, beside --out (or in
// the working directory: see journalPath), which a batch that completes
// deletes. It prints why it cannot and returns false.
func batchFiles(p *plan.Plan, root, resume string, resumed *executor.JournalState, journalFlag, out string, e *Env) (rd *resultsDir, jpath string, implicit, ok bool) {
	jpath = resume
	if jpath == "" {
		jpath = journalPath(journalFlag, out, p)
	}
	if root == "" {
		return nil, jpath, resume == "" && journalFlag == "" && jpath != "", true
	}
	start := time.Now()
	if resumed != nil {
		start = resumed.Header.Started
	}
	rd, err := openResultsDir(root, p, start, resume)
	if err != nil {
		e.Errorf("%v", err)
		return nil, "", false, false
	}
	switch {
	case resume == "" && journalFlag == "":
		jpath = rd.journal
	case jpath != rd.journal:
		rd.release()
	}
	return rd, jpath, false, true
}

// resultsDir is where one batch writes in a results directory.
type resultsDir struct {
	report  string // this batch's report
	journal string // its journal, reserved
	latest  string
}

// openResultsDir picks the files of the batch that runs p, started at
// start, under root. resume is the journal a resumed batch continues
// ("" for a new batch): when it is one of the directory's, the batch
// keeps its report's name.
func openResultsDir(root string, p *plan.Plan, start time.Time, resume string) (*resultsDir, error) {
	// The spec's schema already refuses such names; a plan is plain data,
	// so this is checked where the name becomes a path, too.
	if p.Suite == "" || p.Suite == "." || p.Suite == ".." || strings.ContainsAny(p.Suite, `/\`) {
		return nil, fmt.Errorf("--results-dir: suite name %q is not a directory name", p.Suite)
	}
	dir := filepath.Join(root, p.Suite)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--results-dir: %w", err)
	}
	suffix := ""
	if s := p.Shard; s != nil {
		suffix = fmt.Sprintf("-shard-%d-of-%d", s.Index, s.Count)
	}
	rd := &resultsDir{latest: filepath.Join(dir, "latest"+suffix+".json")}
	if name, ok := strings.CutSuffix(resume, ".json.journal"); ok && resume != "" {
		if same, _ := sameDir(filepath.Dir(resume), dir); same {
			rd.report, rd.journal = name+".json", resume
			return rd, rd.checkOwnFiles()
		}
	}
	stamp := start.UTC().Format("20060102T150405Z") + suffix
	for n := 1; n < 1000; n++ {
		name := stamp
		if n > 1 {
			name = fmt.Sprintf("%s-%d", stamp, n)
		}
		rd.report = filepath.Join(dir, name+".json")
		rd.journal = rd.report + ".journal"
		if _, err := os.Lstat(rd.report); err == nil {
			continue
		}
		f, err := os.OpenFile(rd.journal, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("--results-dir: %w", err)
		}
		f.Close() // the journal replaces this placeholder
		if err := rd.checkOwnFiles(); err != nil {
			rd.release()
			return nil, err
		}
		return rd, nil
	}
	return nil, fmt.Errorf("--results-dir: %s: no free name for a report of %s", dir, stamp)
}

// checkOwnFiles refuses, before the batch runs, a results directory
// whose latest report, or the report a resumed batch finishes, is
// anything but a regular file: a link there would have the batch write
// where the link points, a FIFO would block it at its end.
func (rd *resultsDir) checkOwnFiles() error {
	for _, path := range []string{rd.latest, rd.report} {
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("--results-dir: %s is %s, not a regular file: a results directory's reports are files benchspec writes; move it away", path, filehash.Kind(fi.Mode()))
		}
	}
	return nil
}

// IsResultsFile reports whether name is one of the files run
// --results-dir keeps in a suite's directory: a batch's report, a latest
// copy, a journal, the history's index.
func IsResultsFile(name string) bool {
	latest := strings.HasPrefix(name, "latest") && strings.HasSuffix(name, ".json")
	return index.IsReport(name) || latest || strings.HasSuffix(name, ".json.journal") || name == index.Name
}

// CheckOutsideResults refuses an output (named by what) that would
// replace one of the files of the results directories dirs (history's
// inputs: each a results directory or a suite's directory in one): its
// directory is one of dirs or a directory in one, and its name is a
// results file (IsResultsFile). Another name there, a page beside the
// reports, is fine.
func CheckOutsideResults(what, out string, dirs []string) error {
	if out == "" || !IsResultsFile(filepath.Base(out)) {
		return nil
	}
	parent := filepath.Dir(resolvedPath(out))
	for _, d := range dirs {
		for _, p := range []string{parent, filepath.Dir(parent)} {
			if same, _ := sameDir(p, d); same {
				return fmt.Errorf("%s %s is a file of the results directory %s, which history reads (a batch's report, a latest copy, a journal or the index): write the output elsewhere", what, out, d)
			}
		}
	}
	return nil
}

func sameDir(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// write saves the report and, when the batch ended, makes it the latest;
// nothing without a results directory.
func (rd *resultsDir) write(rep *report.Report, ended bool) error {
	if rd == nil {
		return nil
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, rep); err != nil {
		return err
	}
	if err := writeFile(rd.report, buf.Bytes()); err != nil {
		return err
	}
	// The history's index is a cache: an entry lost here is read from the
	// report by the next history.
	if fi, err := os.Stat(rd.report); err == nil {
		index.Append(filepath.Dir(rd.report), index.NewEntry(fi, rep))
	}
	if !ended {
		return nil
	}
	return writeFile(rd.latest, buf.Bytes())
}

// release removes the journal's placeholder when the batch did not get
// to create its journal (it was refused).
func (rd *resultsDir) release() {
	if rd == nil {
		return
	}
	if fi, err := os.Stat(rd.journal); err == nil && fi.Size() == 0 {
		os.Remove(rd.journal)
	}
}
