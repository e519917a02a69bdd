package gotest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/benchspec/benchspec/internal/filehash"
)

// driverVersion is the driver the binaries get (Version): a
// binary an older benchspec built with another driver is not reused. It
// is computed when first needed: generating and hashing the driver's
// source is work the guard and the forks of package benchmarks
// (processes of the same binary) would pay at start-up for nothing.
var driverVersion = sync.OnceValue(Version)

// maxFingerprintFiles bounds the module walk: a module larger than this
// is rebuilt (by the go command, whose own cache makes that cheap)
// rather than walked.
const maxFingerprintFiles = 20000

// fingerprint identifies a build of pkg (run in dir) without running the
// go command, which caches compiled packages but not a test binary's
// link: `go list` and `go test -c` would cost about a second per package
// on every plan and run. It keys on benchspec's driver (driverVersion),
// the go binary (path, size, modification time), the environment that
// steers the go command (GO*, CGO_*, CC, CXX, PKG_CONFIG), the variant's
// flags and environment (a profile it names is a file of the module:
// CheckBuildScope), the package argument, the directory, and every file
// of the module the package is resolved in (path, size, modification
// time, and the content of go.mod and go.sum). "" means there is no safe
// fingerprint: no go binary found, a workspace, a go.mod replace to a
// directory, or a module too large to walk; such a package is built
// every time.
func fingerprint(goBin, dir, pkg string, x variant) string {
	if os.Getenv("BENCHSPEC_CACHE_NO_INDEX") != "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "benchspec testbin v1\x00%s\x00%s\x00", driverVersion(), pkg)
	if id := x.id(); id != "" {
		fmt.Fprintf(h, "variant %q\x00", id)
	}
	gopath, err := exec.LookPath(goBin)
	if err != nil {
		return ""
	}
	gofi, err := os.Stat(gopath)
	if err != nil {
		return ""
	}
	fmt.Fprintf(h, "%s %d %d\x00", gopath, gofi.Size(), gofi.ModTime().UnixNano())
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GO") || strings.HasPrefix(k, "CGO_") || k == "CC" || k == "CXX" || k == "PKG_CONFIG" || k == "PATH" {
			env = append(env, kv)
		}
	}
	sort.Strings(env)
	fmt.Fprintf(h, "%q\x00", env)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return ""
		}
		dir = wd
	}
	fmt.Fprintf(h, "%s\x00", dir)
	root := moduleRoot(dir)
	if root == "" {
		// No module: an import path is the standard library's (or
		// GOPATH's, which GOPATH in the environment keys).
		return hex.EncodeToString(h.Sum(nil))
	}
	if os.Getenv("GOWORK") != "off" && (os.Getenv("GOWORK") != "" || findUp(root, "go.work") != "") {
		return ""
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		data, _ := os.ReadFile(filepath.Join(root, f))
		if f == "go.mod" && hasLocalReplace(data) {
			return ""
		}
		fmt.Fprintf(h, "%s %d\x00", f, len(data))
		h.Write(data)
	}
	if !walkInto(h, root) {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// walkInto writes every file of the module at root into h, except those
// of nested modules and of .git.
func walkInto(h io.Writer, root string) bool {
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == ".git" || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxFingerprintFiles {
			return fs.ErrInvalid
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %o %d %d\x00", path, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	return err == nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// moduleRoot is the directory of the go.mod that governs dir, or "".
func moduleRoot(dir string) string {
	if f := findUp(dir, "go.mod"); f != "" {
		return filepath.Dir(f)
	}
	return ""
}

// findUp is the first file (not a directory) name in dir or above, or "".
func findUp(dir, name string) string {
	for {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
			return filepath.Join(dir, name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// hasLocalReplace reports whether go.mod replaces a module with a
// directory (./x, ../x, /x), or cannot be read to tell.
func hasLocalReplace(gomod []byte) bool {
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return true
	}
	return slices.ContainsFunc(f.Replace, func(r *modfile.Replace) bool { return modfile.IsDirectoryPath(r.New.Path) })
}

// A cached test binary is run only after its content is checked
// against the SHA-256 recorded when benchspec built it (verifyBinary):
// a binary replaced in the cache — a poisoned shared CI cache, a script
// put in its place — is not run but removed and built again, as a cache
// that lost the file would; the command says it did (Builder.Warn).
// Rebuilding rather than refusing: the cache is not a source of truth,
// and the build gives the user what they asked for without a manual
// clean-up, while the replaced file is gone and cannot run later.
//
// The record, <binary>.sha256 beside it, is also what makes a file the
// cache's own: Entries, Prune and Clear see, and delete, only regular
// files with a record, so that a cache directory pointed at the wrong
// place deletes nothing of the user's.
//
// What this does not stop is someone who can write the whole cache:
// they can write a record to match; the cache must be the user's own.

// sumExt is the file name suffix of a binary's recorded SHA-256.
const sumExt = ".sha256"

// record writes the SHA-256 sum of the binary at path beside it.
func record(path, sum string) error {
	return writeFileAtomic(path+sumExt, []byte(sum+"\n"))
}

// recorded is the SHA-256 recorded for the binary at path, "" when there
// is no record (or it is not a small regular file).
func recorded(path string) string {
	f, err := os.OpenFile(path+sumExt, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	buf := make([]byte, 2*sha256.Size+2)
	n, _ := io.ReadFull(f, buf)
	sum := strings.TrimSpace(string(buf[:n]))
	if len(sum) != 2*sha256.Size {
		return ""
	}
	return sum
}

// verifyBinary checks the binary at path against its recorded SHA-256:
// a regular file (not a link), with a record, whose content hashes to
// it.
func verifyBinary(path string) error {
	want := recorded(path)
	if want == "" {
		return fmt.Errorf("%s: no record of its SHA-256 (%s): not built by this benchspec", path, filepath.Base(path)+sumExt)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	got, err := filehash.SHA256(path)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%s: its content (SHA-256 %s…) is not the binary benchspec built (%s…)", path, got[:16], want[:16])
	}
	return nil
}

// discard removes a cached binary that failed verifyBinary (a regular
// file or a link, never a directory), with its record and listing.
func discard(cache, path string) error {
	if filepath.Dir(path) != filepath.Clean(cache) {
		return nil
	}
	var err error
	if fi, lerr := os.Lstat(path); lerr == nil && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0) {
		err = os.Remove(path)
	}
	os.Remove(path + sumExt)
	if isDir(filepath.Join(cache, "index")) {
		os.Remove(listingPath(cache, path))
	}
	return err
}

// isDir reports whether path is a directory itself, not a symbolic link
// to one: the cache deletes in its own directories only.
func isDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

func indexPath(cache, fp string) string { return filepath.Join(cache, "index", fp+".json") }

// readIndex is the package a fingerprint was built into, if its binary
// is still in the cache and is the one built (verifyBinary); using it
// marks the binary as used. A binary that fails verification is removed
// and its error returned, so that it is built again.
func readIndex(cache, fp string) (*Package, error) {
	if fp == "" {
		return nil, nil
	}
	data, err := os.ReadFile(indexPath(cache, fp))
	if err != nil {
		return nil, nil
	}
	var p Package
	if json.Unmarshal(data, &p) != nil || p.Binary == "" || len(p.Benchmarks) == 0 {
		return nil, nil
	}
	if filepath.Dir(p.Binary) != filepath.Clean(cache) || !fileExists(p.Binary) || !fileExists(p.Dir) {
		return nil, nil
	}
	if err := verifyBinary(p.Binary); err != nil {
		discard(cache, p.Binary)
		return nil, err
	}
	now := time.Now()
	os.Chtimes(p.Binary, now, now)
	return &p, nil
}

func writeIndex(cache, fp string, p *Package) {
	if fp == "" {
		return
	}
	data, err := json.Marshal(p)
	if err != nil {
		return
	}
	os.MkdirAll(filepath.Join(cache, "index"), 0o755)
	writeFileAtomic(indexPath(cache, fp), data)
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

// Limits bound the test-binary cache. A binary's age is the time since a
// batch last used it (its modification time).
type Limits struct {
	MaxBytes int64         // 0: no size limit
	MaxAge   time.Duration // 0: no age limit
}

// Default limits: a few dozen test binaries, and a month.
const (
	DefaultMaxBytes = 2 << 30
	DefaultMaxAge   = 30 * 24 * time.Hour
)

// LimitsFromEnv are the limits $BENCHSPEC_CACHE_MAX_SIZE (bytes, or
// with a KB, MB, GB, KiB, MiB or GiB suffix) and $BENCHSPEC_CACHE_MAX_AGE
// (a Go duration, or days: 30d) set, else the defaults. A value that does
// not parse is the default.
func LimitsFromEnv() Limits {
	l := Limits{MaxBytes: DefaultMaxBytes, MaxAge: DefaultMaxAge}
	if v := os.Getenv("BENCHSPEC_CACHE_MAX_SIZE"); v != "" {
		if n, err := ParseSize(v); err == nil {
			l.MaxBytes = n
		}
	}
	if v := os.Getenv("BENCHSPEC_CACHE_MAX_AGE"); v != "" {
		if d, err := ParseAge(v); err == nil {
			l.MaxAge = d
		}
	}
	return l
}

// ParseSize parses a byte count with an optional unit suffix.
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		n      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	mult := int64(1)
	num := strings.TrimSpace(s)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("invalid size %q: want bytes, or a number with KB, MB, GB, KiB, MiB or GiB", s)
	}
	return n * mult, nil
}

// ParseAge parses a Go duration or a number of days ("30d").
func ParseAge(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err == nil && n >= 0 && n < 100000 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid age %q: want a duration (72h) or days (30d)", s)
	}
	return d, nil
}

// Entry is one test binary in the cache.
type Entry struct {
	Path     string
	Size     int64
	LastUsed time.Time
}

// Entries lists the cache's test binaries, most recently used first:
// the regular files named *.test with a record of their SHA-256 (see
// verifyBinary), nothing else — not a link, not a file benchspec did
// not build.
func Entries(cache string) ([]Entry, error) {
	des, err := os.ReadDir(cache)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".test") || recorded(filepath.Join(cache, de.Name())) == "" {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		out = append(out, Entry{Path: filepath.Join(cache, de.Name()), Size: fi.Size(), LastUsed: fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastUsed.After(out[j].LastUsed) })
	return out, nil
}

// Prune removes the binaries older than the age limit, then the least
// recently used ones until the cache is within the size limit, never
// keep (the binary a batch is about to run), and the index entries and
// listings of removed binaries. It returns what it removed.
func (l Limits) Prune(cache string, keep ...string) ([]Entry, error) {
	if err := checkRoot(cache); err != nil {
		return nil, err
	}
	entries, err := Entries(cache)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, e := range entries {
		total += e.Size
	}
	now := time.Now()
	var removed []Entry
	for i := len(entries) - 1; i >= 0; i-- { // oldest first
		e := entries[i]
		old := l.MaxAge > 0 && now.Sub(e.LastUsed) > l.MaxAge
		big := l.MaxBytes > 0 && total > l.MaxBytes
		if (!old && !big) || slices.Contains(keep, e.Path) {
			continue
		}
		if err := discard(cache, e.Path); err != nil {
			return removed, err
		}
		total -= e.Size
		removed = append(removed, e)
	}
	pruneModules(cache, l.MaxAge)
	if len(removed) > 0 {
		pruneIndex(cache)
	}
	return removed, nil
}

// pruneIndex removes index entries whose binary is gone.
func pruneIndex(cache string) {
	dir := filepath.Join(cache, "index")
	if !isDir(dir) {
		return
	}
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".json") || strings.HasSuffix(de.Name(), ".list.json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, de.Name()))
		var p Package
		if err != nil || json.Unmarshal(data, &p) != nil || !fileExists(p.Binary) {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

// Clear removes every test binary (of Entries), listing, index entry,
// driver file and module copy from the cache, and returns the binaries
// it removed.
func Clear(cache string) ([]Entry, error) {
	if err := checkRoot(cache); err != nil {
		return nil, err
	}
	entries, err := Entries(cache)
	if err != nil {
		return nil, err
	}
	for i, e := range entries {
		if err := discard(cache, e.Path); err != nil {
			return entries[:i], err
		}
	}
	for _, dir := range []string{"index", "overlay", "modules", "workspaces"} {
		if err := os.RemoveAll(filepath.Join(cache, dir)); err != nil {
			return entries, err
		}
	}
	return entries, nil
}

// checkRoot refuses to delete in a cache given as a symbolic link: what
// it deletes is then decided by wherever the link points, and a link
// followed by mistake (a --dir or $BENCHSPEC_CACHE naming the wrong
// place) must not delete there. The directory it links to is accepted.
func checkRoot(cache string) error {
	fi, err := os.Lstat(cache)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := filepath.EvalSymlinks(cache)
		return fmt.Errorf("test binary cache %s is a symbolic link (to %s): benchspec deletes only in the cache directory itself; name that directory", cache, target)
	case !fi.IsDir():
		return fmt.Errorf("test binary cache %s is not a directory", cache)
	}
	return nil
}
