package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteOutput writes every output of both binaries (the --out flags, the
// --results-dir files): write's output to stdout when path is "", else to
// path. A regular file, or a path where nothing is yet, is replaced
// atomically and durably (temp file in the same directory, synced,
// renamed, directory synced): a reader or a crash sees the old file or the
// whole new one; a symlink to a file replaces its target and stays a link.
// Anything else that exists (/dev/null, a FIFO, /dev/stdout) is opened and
// written, never replaced: replacing /dev/null as root would break the
// machine, replacing /dev/stdout would write nothing where the user looks.
// Every error of write or of the file is returned: the command fails
// rather than claim a report it did not write.
func WriteOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	target, replace, err := outputTarget(path)
	if err != nil {
		return err
	}
	if !replace {
		return writeInPlace(path, write)
	}
	return replaceFile(target, write)
}

// IsReplaced reports whether WriteOutput would replace path as a regular
// file (true), or write to what is there (false: a device, a FIFO, a link
// into /proc).
func IsReplaced(path string) bool {
	_, replace, err := outputTarget(path)
	return err == nil && replace
}

// outputTarget follows path's symbolic links and returns the regular
// file (existing or not) that a write replaces, or replace false when
// path names something to write to in place. Links that live in /proc
// (/dev/stdout → /proc/self/fd/1 → whatever fd 1 is) name an open file,
// not a path: what they point to is written to, even a regular file.
func outputTarget(path string) (target string, replace bool, err error) {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return p, true, nil
		case err != nil:
			return "", false, err
		case fi.Mode().IsRegular():
			return p, true, nil
		case fi.Mode()&fs.ModeSymlink == 0:
			return "", false, nil
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && (dir == "/proc" || strings.HasPrefix(dir, "/proc/")) {
			return "", false, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", false, fmt.Errorf("%s: too many levels of symbolic links", path)
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

// writeFile writes data with WriteOutput.
func writeFile(path string, data []byte) error {
	return WriteOutput(path, nil, func(w io.Writer) error {
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
