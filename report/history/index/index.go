// Package index keeps a summary of every report in a results directory
// (run --results-dir) beside the reports, so that a history of a thousand
// nights reads one small file instead of a thousand large ones.
//
// The reports stay the single source of truth. The index is a cache
// keyed by each report's file name, size, modification time, inode and
// change time (ctime): an entry whose report changed, vanished or never
// had one is recomputed from the report. Size and modification time
// alone are not enough: an edit that keeps the size, with the
// modification time set back (touch -r, cp -p), left the index showing
// what the report no longer says; the change time cannot be set back,
// and a file put in the report's place has another inode. (A copy of
// the directory, which changes both, costs one reading of each report.)
// An index that is missing, unreadable or corrupt is rebuilt
// from the reports, and an index that is missing, unreadable or corrupt is rebuilt
// from the reports. run --results-dir appends the entry of the report it
// has just written; history rewrites the file, compacted, when it found
// entries missing or stale. A lost append (two writers at once, a crash
// mid-line) costs only the time to read that report again.
//
// The file, DIR/history.index.jsonl, is JSON Lines: a header line
// {"index_version":1}, then one Entry per line; when a file appears
// twice, the later line wins.
package index

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"syscall"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"
)

// Name is the index's file name in a suite's results directory.
const Name = "history.index.jsonl"

// Version is the index format; an index of another version is rebuilt.
// Version 2 added each run's forks and the spread of its fork means;
// version 3 the report's inode and change time; version 4 the median
// and median absolute deviation of its fork means.
const Version = 4

// Size limits. Reports and the index are read as hostile input: a file
// larger than its limit is refused before it is read.
const (
	// MaxReportBytes bounds one report: report.Read's bound.
	MaxReportBytes = report.MaxBytes
	// MaxIndexBytes bounds the index: a thousand reports of fifty runs
	// make about 10 MiB. A larger index is ignored and rebuilt.
	MaxIndexBytes = 256 << 20
	// maxLine bounds one line of the index (one report's summary).
	maxLine = 16 << 20
)

// reportName matches the reports run --results-dir writes:
// <UTC start>[-shard-i-of-n][-k].json. latest*.json (a copy), journals
// and temporary files do not match.
var reportName = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z(-shard-[0-9]+-of-[0-9]+)?(-[0-9]+)?\.json$`)

// IsReport reports whether name is the file name of a batch's report in
// a results directory.
func IsReport(name string) bool { return reportName.MatchString(name) }

// Entry is one report's summary and the file state it was made from.
type Entry struct {
	File    string `json:"file"` // base name, in the index's directory
	Size    int64  `json:"size"`
	ModTime int64  `json:"mod_time_ns"` // Unix nanoseconds
	// Inode and ChangeTime (Unix nanoseconds) identify the file and its
	// last change, which no one but the kernel sets.
	Inode      uint64 `json:"inode"`
	ChangeTime int64  `json:"change_time_ns"`
	Summary
}

// Summary is what a history needs of a report.
type Summary struct {
	Suite    string    `json:"suite"`
	Start    time.Time `json:"start"`
	Complete bool      `json:"complete"`
	Label    string    `json:"label,omitempty"`
	Revision string    `json:"revision,omitempty"` // report.Report.Revision
	// RevisionTime is the commit time of the first source with a
	// revision.
	RevisionTime string `json:"revision_time,omitempty"`
	Shard        *Shard `json:"shard,omitempty"`
	Runs         []Run  `json:"runs"`
}

// Shard is the part of a sharded plan a report holds.
type Shard struct {
	Index      int    `json:"index"`
	Count      int    `json:"count"`
	PlanSHA256 string `json:"plan_sha256"`
}

// Run is a run's identity and its primary score.
type Run struct {
	Key       string            `json:"key"`
	Benchmark string            `json:"benchmark"`
	Params    map[string]string `json:"params,omitempty"`
	Mode      string            `json:"mode"`
	Threads   int               `json:"threads"`
	Status    string            `json:"status"`
	Unit      string            `json:"unit,omitempty"`
	// Score, Error (99.9 % half-width), Stdev (of the iteration scores)
	// and Count (of the iteration scores) are the primary metric's; null
	// or 0 when the run failed.
	Score report.Float `json:"score"`
	Error report.Float `json:"error"`
	Stdev report.Float `json:"stdev"`
	Count int          `json:"count"`
	// Forks is the number of measured forks with values, and ForkStdev
	// the sample standard deviation of their means (null with fewer than
	// two): forks are the independent unit of a score (report.Variance),
	// so the score's own variance is ForkStdev² / Forks.
	Forks     int          `json:"forks"`
	ForkStdev report.Float `json:"fork_stdev"`
	// ForkMedian is the median of the fork means and ForkMAD their
	// median absolute deviation from it (unscaled): a night's level and
	// spread that a few forks slowed by a busy machine cannot move.
	// Null without fork means.
	ForkMedian report.Float `json:"fork_median"`
	ForkMAD    report.Float `json:"fork_mad"`
}

// Summarize returns the summary of rep.
func Summarize(rep *report.Report) Summary {
	s := Summary{Suite: rep.Suite, Start: rep.Env.Start.UTC(), Complete: rep.Complete, Label: rep.Label,
		Revision: rep.Revision(), Runs: make([]Run, 0, len(rep.Runs))}
	for _, src := range rep.Sources {
		if src.Revision != "" {
			s.RevisionTime = src.Time
			break
		}
	}
	if sh := rep.Shard; sh != nil {
		s.Shard = &Shard{Index: sh.Index, Count: sh.Count, PlanSHA256: sh.PlanSHA256}
	}
	for i := range rep.Runs {
		r := &rep.Runs[i]
		run := Run{Key: r.Key, Benchmark: r.Benchmark, Params: r.Params, Mode: r.Mode.String(), Threads: r.Threads,
			Status: r.Status, Score: report.NaN(), Error: report.NaN(), Stdev: report.NaN(), ForkStdev: report.NaN(),
			ForkMedian: report.NaN(), ForkMAD: report.NaN()}
		if m := r.Primary; m != nil {
			run.Unit, run.Score, run.Error, run.Stdev, run.Count = m.ScoreUnit, m.Score, m.ScoreError, m.Stdev, m.Count
			run.Forks, run.ForkStdev = forkSpread(m)
			run.ForkMedian, run.ForkMAD = forkMedian(m)
		}
		s.Runs = append(s.Runs, run)
	}
	return s
}

// forkSpread is the number of forks of m with values and the sample
// standard deviation of their means, from the metric's fork-level model
// (NaN with fewer than two forks, or a mean that is not finite).
func forkSpread(m *report.Metric) (int, report.Float) {
	if m.Variance == nil {
		return 0, report.NaN()
	}
	means := make([]float64, 0, len(m.Variance.ForkMeans))
	for _, v := range m.Variance.ForkMeans {
		if !v.Valid() {
			return m.Variance.Forks, report.NaN()
		}
		means = append(means, float64(v))
	}
	if len(means) < 2 {
		return m.Variance.Forks, report.NaN()
	}
	return m.Variance.Forks, report.Float(stat.StdDev(means, nil))
}

// forkMedian is the median of m's fork means and their median absolute
// deviation from it; NaN without fork means or with one that is not
// finite.
func forkMedian(m *report.Metric) (median, mad report.Float) {
	if m.Variance == nil || len(m.Variance.ForkMeans) == 0 {
		return report.NaN(), report.NaN()
	}
	means := make([]float64, 0, len(m.Variance.ForkMeans))
	for _, v := range m.Variance.ForkMeans {
		if !v.Valid() {
			return report.NaN(), report.NaN()
		}
		means = append(means, float64(v))
	}
	return report.Float(stats.Median(means)), report.Float(stats.MedianAbsDev(means))
}

// valid reports whether an entry read from the index is whole enough to
// stand for its report; anything else is recomputed from the report.
func (e *Entry) valid() bool {
	if !IsReport(e.File) || e.Suite == "" || e.Start.IsZero() {
		return false
	}
	for _, r := range e.Runs {
		if r.Key == "" || r.Benchmark == "" || r.Mode == "" || r.Count < 0 || r.Forks < 0 {
			return false
		}
	}
	return e.Shard == nil || e.Shard.Index >= 1 && e.Shard.Index <= e.Shard.Count
}

// fresh reports whether e was made from the file fi describes: the
// same size, modification time, inode and change time. Without the
// latter two (a system whose FileInfo has no syscall.Stat_t) nothing is
// fresh and every report is read.
func (e *Entry) fresh(fi fs.FileInfo) bool {
	ino, ctime, ok := fileID(fi)
	return ok && e.Size == fi.Size() && e.ModTime == fi.ModTime().UnixNano() && e.Inode == ino && e.ChangeTime == ctime
}

// fileID is the inode and change time of the file fi describes.
func fileID(fi fs.FileInfo) (ino uint64, ctime int64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, 0, false
	}
	return st.Ino, st.Ctim.Nano(), true
}

// NewEntry is the entry of the report rep, saved as the file fi
// describes.
func NewEntry(fi fs.FileInfo, rep *report.Report) Entry {
	ino, ctime, _ := fileID(fi)
	return Entry{File: fi.Name(), Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Inode: ino, ChangeTime: ctime, Summary: Summarize(rep)}
}

// Load returns the entries of every report in dir, in the order the
// batches started (then by file name):
// from the index where it is fresh, else read from the report. stale is
// true when the index should be rewritten (Write): it was missing,
// unreadable, or lacked or held entries that did not match the reports.
// A report that cannot be read, is too large or is not a valid report is
// an error naming its file, and so is anything named like a report that
// is not a regular file (a directory, a link, a FIFO, a device): run
// --results-dir writes none of them, and one skipped in silence would
// hide a night.
func Load(dir string) (entries []Entry, stale bool, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, err
	}
	cached, lines, ok := readIndex(filepath.Join(dir, Name))
	stale = !ok
	used := 0
	for _, de := range des {
		if !IsReport(de.Name()) {
			continue
		}
		if !de.Type().IsRegular() {
			return nil, false, fmt.Errorf("%s: named like a report, but %s: a results directory's reports are regular files; move it away", filepath.Join(dir, de.Name()), filehash.Kind(de.Type()))
		}
		fi, err := de.Info()
		if err != nil {
			return nil, false, err
		}
		if e, ok := cached[fi.Name()]; ok && e.fresh(fi) {
			entries = append(entries, e)
			used++
			continue
		}
		stale = true
		e, err := ReadReport(filepath.Join(dir, fi.Name()))
		if err != nil {
			return nil, false, err
		}
		entries = append(entries, e)
	}
	// Entries of vanished reports, and lines a later one overrode, make
	// the index larger than it needs to be.
	stale = stale || used != lines
	// File names order the batches by the second they started, and two
	// batches of one second are <stamp>.json and <stamp>-2.json, which
	// sort the other way round: the start time, to the nanosecond, comes
	// first.
	sort.Slice(entries, func(i, j int) bool {
		a, b := &entries[i], &entries[j]
		if !a.Start.Equal(b.Start) {
			return a.Start.Before(b.Start)
		}
		return a.File < b.File
	})
	return entries, stale, nil
}

// ReadReport reads the report at path, bounded by MaxReportBytes, and
// returns its entry. It opens path without following a symbolic link
// and without blocking (a FIFO put in a report's place would block an
// open for reading until a writer came), and refuses anything but a
// regular file before reading.
func ReadReport(path string) (Entry, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return Entry{}, fmt.Errorf("%s: named like a report, but a symbolic link: a results directory's reports are regular files; move it away", path)
	}
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Entry{}, err
	}
	if !fi.Mode().IsRegular() {
		return Entry{}, fmt.Errorf("%s: named like a report, but %s: a results directory's reports are regular files; move it away", path, filehash.Kind(fi.Mode().Type()))
	}
	if fi.Size() > MaxReportBytes {
		return Entry{}, fmt.Errorf("%s: %d bytes, more than a report may have (%d MiB)", path, fi.Size(), MaxReportBytes>>20)
	}
	rep, err := report.Read(io.LimitReader(f, MaxReportBytes))
	if err != nil {
		return Entry{}, fmt.Errorf("%s: %w", path, err)
	}
	if rep.Suite == "" || rep.Env.Start.IsZero() {
		return Entry{}, fmt.Errorf("%s: not a batch's report: it has no suite or no env.start", path)
	}
	for i, r := range rep.Runs {
		if r.Key == "" || r.Benchmark == "" || r.Mode == "" {
			return Entry{}, fmt.Errorf("%s: runs[%d] has no key, benchmark or mode", path, i)
		}
	}
	return NewEntry(fi, rep), nil
}

// readIndex reads the index at path: its valid entries by file, the
// number of entry lines, and whether the file was there and readable.
// Lines that do not decode are skipped (a torn append); an index of
// another version or too large counts as missing.
func readIndex(path string) (map[string]Entry, int, bool) {
	// Not through a link, and never blocking on a FIFO in its place.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxIndexBytes {
		return nil, 0, false
	}
	sc := bufio.NewScanner(io.LimitReader(f, MaxIndexBytes))
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var head struct {
		Version int `json:"index_version"`
	}
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &head) != nil || head.Version != Version {
		return nil, 0, false
	}
	entries, lines, ok := map[string]Entry{}, 0, true
	for sc.Scan() {
		lines++
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || !e.valid() {
			ok = false
			continue
		}
		entries[e.File] = e
	}
	if sc.Err() != nil {
		return nil, 0, false
	}
	return entries, lines, ok
}

// header is the index's first line.
func header() string { return fmt.Sprintf("{\"index_version\":%d}\n", Version) }

// Encode writes a whole index of entries to w.
func Encode(w io.Writer, entries []Entry) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(header())
	for i := range entries {
		line, err := Line(&entries[i])
		if err != nil {
			return err
		}
		bw.Write(line)
	}
	return bw.Flush()
}

// Line is e as one line of the index, newline included.
func Line(e *Entry) ([]byte, error) {
	line, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("index: %s: %w", e.File, err)
	}
	return append(line, '\n'), nil
}

// Append adds e to the index in dir, creating the index when there is
// none. One write of one line: a reader sees it whole or, if a crash
// tears it, skips it and reads the report instead.
func Append(dir string, e Entry) error {
	line, err := Line(&e)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, Name)
	// Never through a link, never blocking on a FIFO, never into
	// anything but a regular file: the index is a cache, not worth a
	// write elsewhere.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is %s, not a regular file", path, filehash.Kind(fi.Mode()))
	}
	if err == nil && fi.Size() == 0 {
		line = append([]byte(header()), line...)
	}
	if err == nil {
		_, err = f.Write(line)
	}
	return errors.Join(err, f.Close())
}
