package executor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// JournalVersion is the version of the journal format this package
// writes and reads.
const JournalVersion = 1

// A journal is the record of a batch as it runs: a JSON-lines file whose
// first line is a header identifying the batch and whose every further
// line is one finished fork, written and fsynced as soon as the fork has
// ended. When the batch ends (all of it ran, or --fail-on-error stopped
// it) an end line follows. A journal without one belongs to a batch that
// was interrupted or killed; resuming it runs only the forks it lacks.
//
//	{"header":{"journal_version":1,"suite":"nightly","specs":[…],"plan_sha256":"…","build_sha256":"…",…}}
//	{"key":"sqrt:avgt","fork":{"run":0,"fork":1,"pid":4242,…}}
//	{"end":{"time":"…","complete":true}}
//
// A fork line cut short by a crash mid-write (no final newline) is
// ignored and overwritten when the journal is resumed.
type journalLine struct {
	Header *JournalHeader       `json:"header,omitempty"`
	Key    string               `json:"key,omitempty"` // the fork's run key, for readers
	Fork   *protocol.ForkResult `json:"fork,omitempty"`
	End    *journalEnd          `json:"end,omitempty"`
}

type journalEnd struct {
	Time     time.Time `json:"time"`
	Complete bool      `json:"complete"`
}

// JournalHeader identifies the batch a journal belongs to: what was
// planned, from which spec files, to be run by which build of the suite.
// A journal may be resumed only by the same plan and build.
type JournalHeader struct {
	Version int    `json:"journal_version"`
	Suite   string `json:"suite"`
	// Specs are the spec files with the SHA-256 of their bytes.
	Specs []plan.SpecRef `json:"specs"`
	// Plan is the SHA-256 of the plan's runs: keys, benchmarks, params,
	// modes and settings.
	Plan string `json:"plan_sha256"`
	Runs int    `json:"runs"`
	// Forks is the number of forks the plan runs.
	Forks int `json:"forks"`
	// Build is the SHA-256 of the suite binary's bytes.
	Build string `json:"build_sha256"`
	// Binaries are the SHA-256 of the other binaries the plan's runs
	// fork, by what they are: "build NAME" (a spec's build of the
	// suite), "package PATH" (a package's test binary, "package PATH
	// build NAME" for a build's). Omitted when there are none.
	Binaries   map[string]string `json:"binaries_sha256,omitempty"`
	Executable string            `json:"executable"` // for readers only
	Started    time.Time         `json:"started"`
	// Temporary: no flag asked for the journal, which goes when its
	// batch completes, whichever run completes it.
	Temporary bool `json:"temporary,omitempty"`
}

// NewJournalHeader describes the batch that runs p with the suite binary
// exe.
func NewJournalHeader(p *plan.Plan, exe string) (JournalHeader, error) {
	build, err := filehash.SHA256(exe)
	if err != nil {
		return JournalHeader{}, fmt.Errorf("identifying the suite binary: %w", err)
	}
	binaries, err := planBinaries(p)
	if err != nil {
		return JournalHeader{}, err
	}
	h := JournalHeader{
		Version:    JournalVersion,
		Suite:      p.Suite,
		Specs:      append([]plan.SpecRef{}, p.Specs...),
		Plan:       PlanSHA256(p),
		Runs:       len(p.Runs),
		Build:      build,
		Binaries:   binaries,
		Executable: exe,
		Started:    time.Now(),
	}
	for i := range p.Runs {
		h.Forks += forkCount(&p.Runs[i])
	}
	return h, nil
}

// planBinaries hashes the binaries p's runs fork other than the batch's
// suite binary (JournalHeader.Binaries): each is rebuilt when a batch
// resumes, and a build's PGO profile or a package's code may have
// changed meanwhile while the plan stays the same.
func planBinaries(p *plan.Plan) (map[string]string, error) {
	var out map[string]string
	add := func(what, path string) error {
		if _, ok := out[what]; ok || path == "" {
			return nil
		}
		sum, err := filehash.SHA256(path)
		if err != nil {
			return fmt.Errorf("identifying the binary of %s: %w", what, err)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[what] = sum
		return nil
	}
	for i := range p.Runs {
		r := &p.Runs[i]
		build := ""
		if r.Build != "" {
			build = " build " + r.Build
		}
		var err error
		if r.GoTest != nil {
			err = add("package "+r.GoTest.ImportPath+build, r.GoTest.Binary)
		} else if r.Executable != "" {
			err = add(strings.TrimSpace(build), r.Executable)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PlanSHA256 is the identity of a plan's runs (plan.Plan.SHA256): the
// SHA-256 of their keys, benchmarks, params, modes and settings in order.
// Spec paths are not part of it; the journal header records the specs'
// own hashes.
func PlanSHA256(p *plan.Plan) string { return p.SHA256() }

// Check reports why a journal with header h cannot be resumed by the
// batch that now has header now: a spec file changed, the plan is not the
// same, or the suite binary was rebuilt with other code.
func (h *JournalHeader) Check(now *JournalHeader) error {
	if h.Version != JournalVersion {
		return fmt.Errorf("journal version %d; this build reads version %d", h.Version, JournalVersion)
	}
	if len(h.Specs) != len(now.Specs) {
		return fmt.Errorf("the journal's batch ran %d spec file(s), this one %d", len(h.Specs), len(now.Specs))
	}
	for i, s := range h.Specs {
		if n := now.Specs[i]; s.SHA256 != n.SHA256 {
			return fmt.Errorf("spec %s changed since the journal was written (sha256 %.12s…, the journal has %.12s… from %s)", n.Path, n.SHA256, s.SHA256, s.Path)
		}
	}
	if h.Plan != now.Plan {
		return fmt.Errorf("the plan changed since the journal was written (the suite's benchmarks or their parameters differ)")
	}
	if h.Build != now.Build {
		return fmt.Errorf("the suite binary changed since the journal was written (sha256 %.12s…, the journal has %.12s… from %s)", now.Build, h.Build, h.Executable)
	}
	names := slices.Sorted(maps.Keys(now.Binaries))
	for _, what := range slices.Sorted(maps.Keys(h.Binaries)) {
		if _, ok := now.Binaries[what]; !ok {
			names = append(names, what)
		}
	}
	for _, what := range names {
		if was, is := h.Binaries[what], now.Binaries[what]; was != is {
			return fmt.Errorf("the binary of %s changed since the journal was written (sha256 %s, the journal has %s): its code, build flags or PGO profile differ", what, short(is), short(was))
		}
	}
	return nil
}

// short is a SHA-256 cut to 12 digits, or "none".
func short(sum string) string {
	if sum == "" {
		return "none"
	}
	return fmt.Sprintf("%.12s…", sum)
}

// JournalState is what a journal holds.
type JournalState struct {
	Header JournalHeader
	// Forks are the recorded forks, in the order they ran.
	Forks []protocol.ForkResult
	// Ended reports whether the batch that wrote the journal ended (ran
	// everything, or was stopped by --fail-on-error) rather than being
	// interrupted or killed; Complete whether it ran everything.
	Ended, Complete bool
	size            int64    // bytes of whole lines
	path            string   // the journal's file, for messages
	keys            []string // the key each fork's line names
	lines           []int    // the line number of each fork
}

// CheckPlan checks every fork line of a journal whose header matched
// (JournalHeader.Check) against the plan p it is to resume: the key it
// names is its run's, its fork is one of the run's, and its result is
// what a fork of that run can report (CheckFork). A journal is a file
// anyone may have edited; its header proves only where it came from.
func (st *JournalState) CheckPlan(p *plan.Plan) error {
	for i := range st.Forks {
		f := &st.Forks[i]
		if f.Run < 0 || f.Run >= len(p.Runs) {
			return fmt.Errorf("%s:%d: fork %d of run %d; the plan has %d runs", st.path, st.lines[i], f.Fork, f.Run, len(p.Runs))
		}
		r := &p.Runs[f.Run]
		if st.keys[i] != r.Key {
			return fmt.Errorf("%s:%d: key %q, but run %d of the plan is %s", st.path, st.lines[i], st.keys[i], f.Run, r.Key)
		}
		if err := CheckFork(r, f); err != nil {
			return fmt.Errorf("%s:%d: %v", st.path, st.lines[i], err)
		}
	}
	return nil
}

// LoadJournal reads the journal at path.
func LoadJournal(path string) (*JournalState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	return parseJournal(path, data)
}

// parseJournal reads the journal data of the file path.
func parseJournal(path string, data []byte) (*JournalState, error) {
	st := &JournalState{path: path}
	seen := map[forkID]int{}
	for n := 1; len(data) > 0; n++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break // a line cut short by a crash: the fork it held runs again
		}
		line := data[:i]
		data = data[i+1:]
		var rec journalLine
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: not a journal line: %v", path, n, err)
		}
		switch {
		case n == 1 && rec.Header == nil:
			return nil, fmt.Errorf("%s:1: not a benchspec journal (no header)", path)
		case rec.Header != nil && n > 1:
			return nil, fmt.Errorf("%s:%d: a second header", path, n)
		case rec.Header != nil:
			st.Header = *rec.Header
			if st.Header.Version != JournalVersion {
				return nil, fmt.Errorf("%s: journal version %d; this build reads version %d", path, st.Header.Version, JournalVersion)
			}
		case rec.Fork != nil:
			f := *rec.Fork
			if f.Run < 0 || f.Run >= st.Header.Runs || f.Fork < 1 {
				return nil, fmt.Errorf("%s:%d: fork %d of run %d is not in the journal's plan", path, n, f.Fork, f.Run)
			}
			id := forkID{f.Run, f.Fork}
			if first, dup := seen[id]; dup {
				return nil, fmt.Errorf("%s:%d: fork %d of run %d recorded twice (first on line %d)", path, n, f.Fork, f.Run, first)
			}
			seen[id] = n
			st.Forks = append(st.Forks, f)
			st.keys = append(st.keys, rec.Key)
			st.lines = append(st.lines, n)
			st.Ended, st.Complete = false, false
		case rec.End != nil:
			st.Ended, st.Complete = true, rec.End.Complete
		default:
			return nil, fmt.Errorf("%s:%d: empty journal line", path, n)
		}
		st.size += int64(i + 1)
	}
	if st.size == 0 {
		return nil, fmt.Errorf("%s: empty journal", path)
	}
	return st, nil
}

// Journal appends to a journal file. Every Append is on disk (fsynced)
// when it returns.
type Journal struct {
	f    *os.File
	path string
}

// CreateJournal writes a new journal at path with header h, replacing
// any file there. The header is written to a temporary file that is
// renamed into place, so a journal never exists without its header.
func CreateJournal(path string, h JournalHeader) (*Journal, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".benchspec-journal-*")
	if err != nil {
		return nil, fmt.Errorf("creating the journal: %w", err)
	}
	j := &Journal{f: tmp, path: path}
	if err := j.write(journalLine{Header: &h}); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("creating the journal: %w", err)
	}
	syncDir(dir)
	return j, nil
}

// OpenJournal opens the journal at path to append to it after the records
// of st (as LoadJournal read them), dropping a line cut short by a crash.
func OpenJournal(path string, st *JournalState) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the journal: %w", err)
	}
	if err := f.Truncate(st.size); err != nil {
		f.Close()
		return nil, fmt.Errorf("opening the journal: %w", err)
	}
	if _, err := f.Seek(st.size, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("opening the journal: %w", err)
	}
	return &Journal{f: f, path: path}, nil
}

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// Append records a finished fork of the run with key.
func (j *Journal) Append(key string, f *protocol.ForkResult) error {
	if err := j.write(journalLine{Key: key, Fork: f}); err != nil {
		return err
	}
	return j.named()
}

// End records that the batch ended; complete reports whether it ran
// everything it planned.
func (j *Journal) End(complete bool) error {
	if err := j.write(journalLine{End: &journalEnd{Time: time.Now(), Complete: complete}}); err != nil {
		return err
	}
	return j.named()
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }

// write appends one line with a single write and waits until it is on
// disk.
func (j *Journal) write(rec journalLine) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("journal %s: encoding: %w", j.path, err)
	}
	if _, err := j.f.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	return nil
}

// named reports an error unless the journal's path still names its file.
func (j *Journal) named() error {
	// The file is held open, so the records go on disk whatever happens
	// to its name; but a journal that no longer has its name cannot be
	// resumed. Forks run in directories of their own, so this takes a
	// deliberate deletion or a concurrent batch.
	own, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if fi, err := os.Stat(j.path); err != nil || !os.SameFile(fi, own) {
		return fmt.Errorf("journal %s was deleted or replaced while the batch ran; the batch cannot be resumed from it", j.path)
	}
	return nil
}

// syncDir makes a rename in dir durable; failure only weakens that.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
