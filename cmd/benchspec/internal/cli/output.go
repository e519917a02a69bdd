package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchspec/benchspec/internal/filehash"
	"github.com/benchspec/benchspec/report/format"
)

// FormatFlag defines --format (text by default), its usage naming the
// formats of l that render what T renders (format.Renderer for a report,
// ComparisonRenderer, ABRenderer, HistoryRenderer); find returns the one
// named, or an error naming the valid ones.
func FormatFlag[T any](fs *flag.FlagSet, l format.List) (find func() (T, error)) {
	name := fs.String("format", "text", "output format: "+strings.Join(format.Names[T](l), ", "))
	return func() (T, error) { return format.Find[T](l, *name) }
}

// WriteOutput writes every output of every command (the --out flags, the
// --results-dir files): write's output to stdout when path is "", else to
// path. A regular file, or a path where nothing is yet, is replaced
// atomically and durably (temp file in the same directory, synced,
// renamed, directory synced): a reader or a crash sees the old file or the
// whole new one. A device, a FIFO or a link into /proc (/dev/stdout, a
// shell's <(…) and >(…)) is opened and written, never replaced: replacing
// /dev/null as root would break the machine, replacing /dev/stdout would
// write nothing where the user looks. Any other symbolic link is refused
// (outputKind): an output is never written through a link, which a
// planted latest.json -> ~/.bashrc would turn into a write anywhere.
// Every error of write or of the file is returned: the command fails
// rather than claim a report it did not write.
//
// Whether the output is one of the command's inputs is checked before the
// command starts (CheckOutputs, Env.OutputsOK), not here.
func WriteOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	replace, err := outputKind("", path)
	if err != nil {
		return err
	}
	if !replace {
		return writeInPlace(path, write)
	}
	return replaceFile(path, write)
}

// IsReplaced reports whether WriteOutput would replace path as a regular
// file (true), or write to what is there or refuse it (false: a device, a
// FIFO, a link).
func IsReplaced(path string) bool {
	replace, err := outputKind("", path)
	return err == nil && replace
}

// outputKind says how an output (named by what in messages, "" for
// none) is written at path: replace true for a regular file or nothing
// (a renamed temporary file takes the path: the rename replaces whatever
// is there, a link included, and never follows it), false for what is
// written in place — a device, a FIFO, a socket, or a chain of links
// that passes through /proc (/dev/stdout -> /proc/self/fd/1 names an
// open file, not a path). A directory, and any other link — to a file, to
// nothing, to a device — are errors: writing through the link would
// write where the link's author chose, not the user.
func outputKind(what, path string) (replace bool, err error) {
	name := strings.TrimSpace(what + " " + path)
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, err
	case fi.Mode().IsRegular():
		return true, nil
	case fi.IsDir():
		return false, fmt.Errorf("%s is a directory; name a file to write", name)
	case fi.Mode()&fs.ModeSymlink == 0:
		return false, nil
	}
	if throughProc(path) {
		return false, nil
	}
	if ti, err := os.Stat(path); err == nil && ti.IsDir() {
		return false, fmt.Errorf("%s is a directory; name a file to write", name)
	}
	to, err := os.Readlink(path)
	if err != nil {
		return false, err
	}
	return false, fmt.Errorf("%s is a symbolic link (to %s): benchspec never writes an output through a link; remove the link or name the file itself", name, to)
}

// throughProc reports whether the chain of links at path passes through
// a link that lives in /proc: the links of /proc/PID/fd name open files.
func throughProc(path string) bool {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return false
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && (dir == "/proc" || strings.HasPrefix(dir, "/proc/")) {
			return true
		}
		link, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return false
}

// writeInPlace writes to what path names without replacing it: appended,
// so that /dev/stdout redirected to a file adds to it as stdout would.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// replaceFile writes a temporary file beside target and renames it over
// target, syncing the file before and the directory after.
func replaceFile(target string, write func(io.Writer) error) error {
	dir := filepath.Dir(target)
	perm := fs.FileMode(0o644) // CreateTemp's 0600 would hide reports from their readers
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, ".benchspec-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a failure; renamed away otherwise
	bw := bufio.NewWriter(tmp)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", target, err)
	}
	return nil
}

// writeFile writes data to path, a file the command names itself (the
// results directory's): a regular file there is replaced; anything else —
// a link, a FIFO, a device — is refused, never written to in place.
func writeFile(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: benchspec replaces only its own files there; move it away", path, filehash.Kind(fi.Mode()))
	}
	return replaceFile(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
