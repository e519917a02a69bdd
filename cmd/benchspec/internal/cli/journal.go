package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// The run journal (see executor.Journal) of `run` goes to --journal FILE;
// else, with `--out REPORT`, to REPORT.journal when REPORT is a file, or
// (a device, FIFO, /dev/stdout: see WriteOutput) to SUITE.journal in the
// working directory (SUITE-shard-i-of-n.journal for a shard), deleted
// once its batch completes since no flag asked for it; with neither flag
// there is none (a batch worth resuming is one whose report is kept).
// A new batch replaces a finished batch's journal but refuses an
// interrupted one's, so a rerun never throws measurements away.
// `run --resume JOURNAL [SPEC...]` reruns only the forks JOURNAL lacks,
// appending them; specs default to the journal's, and they and the suite
// binary must be the ones that wrote it. A journal no flag asked for
// says so in its header (Temporary), so that the resume that completes
// its batch deletes it too.
//
// A batch holds an exclusive lock (flock) on its journal for its whole
// life, taken before a resumed journal is read: a second run that would
// resume or replace it fails at once, exit 2, rather than interleave its
// forks with the first's and leave a journal neither can resume.

// runJournal is the journal of one run command; nil when there is none.
type runJournal struct {
	j       *executor.Journal
	resumed *executor.JournalState // nil for a new batch
	// temporary: no flag asked for the journal (its header says so when
	// resumed); it goes once the batch completes and its report is
	// written (discard).
	temporary bool
	complete  bool     // the batch ended complete (close)
	lock      *os.File // holds the journal's lock until close
}

// journalPath is where a new batch's journal goes; "" for none.
func journalPath(flagValue, out string, p *plan.Plan) string {
	switch {
	case flagValue != "":
		return flagValue
	case out != "" && IsReplaced(out):
		return out + ".journal"
	case out != "":
		name := p.Suite
		if s := p.Shard; s != nil {
			name += fmt.Sprintf("-shard-%d-of-%d", s.Index, s.Count)
		}
		return name + ".journal"
	}
	return ""
}

// openJournal creates the journal of a new batch at path, or opens the
// resumed one, after checking that it belongs to this plan and build;
// temporary says no flag asked for a new batch's journal. It prints why
// it cannot and returns false.
func openJournal(e *Env, p *plan.Plan, exe, path string, resumed *executor.JournalState, temporary bool) (*runJournal, bool) {
	if path == "" {
		return nil, true
	}
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			e.Errorf("journal: finding the suite binary: %v", err)
			return nil, false
		}
	}
	h, err := executor.NewJournalHeader(p, exe)
	if err != nil {
		e.Errorf("journal: %v", err)
		return nil, false
	}
	if resumed != nil {
		if err := resumed.Header.Check(&h); err != nil {
			e.Errorf("cannot resume %s: %v", path, err)
			return nil, false
		}
		if err := resumed.CheckPlan(p); err != nil {
			e.Errorf("cannot resume %s: %v", path, err)
			return nil, false
		}
		j, err := executor.OpenJournal(path, resumed)
		if err != nil {
			e.Errorf("%v", err)
			return nil, false
		}
		return &runJournal{j: j, resumed: resumed, temporary: resumed.Header.Temporary}, true
	}
	// A batch that holds the journal there (running, or resuming it)
	// keeps it: this one would rename its own over it.
	if lock, err := lockJournal(path); err == nil {
		lock.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		e.Errorf("%v", err)
		return nil, false
	}
	if old, err := executor.LoadJournal(path); err == nil && !old.Ended && len(old.Forks) > 0 {
		e.Errorf("%s holds an unfinished batch (%d of %d forks done, started %s): resume it with --resume %s, or delete the file to start over",
			path, len(old.Forks), old.Header.Forks, old.Header.Started.Format("2006-01-02 15:04:05"), path)
		return nil, false
	}
	h.Temporary = temporary
	j, err := executor.CreateJournal(path, h)
	if err != nil {
		e.Errorf("%v", err)
		return nil, false
	}
	rj := &runJournal{j: j, temporary: temporary}
	if rj.lock, err = lockJournal(path); err != nil {
		j.Close()
		e.Errorf("%v", err)
		return nil, false
	}
	return rj, true
}

// lockJournal opens the journal at path and takes its exclusive lock,
// without waiting: another batch that holds it is an error that says so.
// It refuses, before the journal is read, what is no journal file: a
// symbolic link (a batch appends to its journal: never through a link)
// and anything but a regular file (a FIFO would block the read). The
// lock lasts until the file returned is closed, or the process ends.
func lockJournal(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("journal %s is a symbolic link: a batch appends to its journal, never through a link; name the file itself", path)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("journal %s is %s, not a regular file: a journal is a file a batch can be resumed from", path, filehash.Kind(fi.Mode()))
	}
	if err == nil {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if errors.Is(err, unix.EWOULDBLOCK) {
			err = fmt.Errorf("journal %s: another benchspec run holds it (it is running or resuming that batch): wait for it to end, or give this batch another journal", path)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// done returns the forks the journal already holds.
func (rj *runJournal) done() []protocol.ForkResult {
	if rj == nil || rj.resumed == nil {
		return nil
	}
	return rj.resumed.Forks
}

// record is executor.Options.Record; nil without a journal.
func (rj *runJournal) record() func(*plan.Run, *protocol.ForkResult) error {
	if rj == nil {
		return nil
	}
	return func(r *plan.Run, f *protocol.ForkResult) error { return rj.j.Append(r.Key, f) }
}

// close ends the journal: with an end line when the batch ended rather
// than being interrupted.
func (rj *runJournal) close(ended, complete bool) error {
	if rj == nil {
		return nil
	}
	var err error
	if ended {
		err = rj.j.End(complete)
	}
	if cerr := rj.j.Close(); err == nil {
		err = cerr
	}
	if rj.lock != nil {
		rj.lock.Close() // the batch is over: another may resume it
	}
	rj.complete = err == nil && ended && complete
	return err
}

// discard deletes a temporary journal whose batch completed, once its
// report is written: not before, so that a report that cannot be
// written (a full disk, --out /dev/full) loses nothing — the journal
// resumes into the report without measuring again (keptHint).
func (rj *runJournal) discard() error {
	if rj == nil || !rj.temporary || !rj.complete {
		return nil
	}
	return os.Remove(rj.j.Path())
}

// keptHint tells, after the report could not be written, where the
// batch's measurements are and how to get the report from them.
func (rj *runJournal) keptHint() string {
	if rj == nil {
		return ""
	}
	return fmt.Sprintf("; the batch's measurements are kept in %s: run again with --resume %s and another --out to write its report without measuring again", rj.path(), rj.path())
}

// path is the journal's file name, "" without one.
func (rj *runJournal) path() string {
	if rj == nil {
		return ""
	}
	return rj.j.Path()
}

// loadResume takes the lock of the journal to resume, if any, reads it,
// and returns the spec paths to run: those given, or else the journal's.
// unlock releases the lock: call it when the command ends.
func loadResume(e *Env, resume, journalFlag string, paths []string) (st *executor.JournalState, specs []string, unlock func(), ok bool) {
	unlock = func() {}
	if resume == "" {
		return nil, paths, unlock, true
	}
	if journalFlag != "" && journalFlag != resume {
		e.Errorf("--journal and --resume name different files; a resumed batch appends to the journal it resumes")
		return nil, nil, unlock, false
	}
	lock, err := lockJournal(resume)
	if err != nil {
		e.Errorf("--resume: %v", err)
		return nil, nil, unlock, false
	}
	unlock = func() { lock.Close() }
	if st, err = executor.LoadJournal(resume); err != nil {
		unlock()
		e.Errorf("--resume: %v", err)
		return nil, nil, func() {}, false
	}
	// --journal naming the journal resumed keeps it, as it keeps a new
	// batch's.
	st.Header.Temporary = st.Header.Temporary && journalFlag == ""
	if len(paths) == 0 {
		for _, s := range st.Header.Specs {
			paths = append(paths, s.Path)
		}
	}
	return st, paths, unlock, true
}

// resumeHint tells how to finish an interrupted batch.
func resumeHint(rj *runJournal) string {
	if rj == nil {
		return ""
	}
	return fmt.Sprintf("; to finish the batch, run again with --resume %s (and the same --out, --format, --results-dir and --shard)", rj.path())
}

// announce says where the journal is and, when resuming, how much of the
// batch it already holds.
func (rj *runJournal) announce(w io.Writer) {
	switch {
	case rj == nil:
	case rj.resumed != nil:
		h := rj.resumed.Header
		fmt.Fprintf(w, "# Resuming %s: %d of %d forks already done (batch started %s)\n\n", rj.path(), len(rj.resumed.Forks), h.Forks, h.Started.Format("2006-01-02 15:04:05"))
	case rj.temporary:
		fmt.Fprintf(w, "# Journal: %s (deleted when the batch completes; --journal FILE keeps one)\n\n", rj.path())
	default:
		fmt.Fprintf(w, "# Journal: %s\n\n", rj.path())
	}
}
