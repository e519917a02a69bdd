// Package forkimage makes the file a batch's forks execute: a private
// copy of the suite binary, written once per batch into a directory of
// its own and removed when the batch ends.
//
// Why a copy: a freshly linked binary sits in the page cache in 4 KiB
// pages; written again with large write(2)s the same bytes sit in large
// folios, which the kernel maps into each fork more cheaply (about 1 ms
// per fork, docs/performance.md "Fork cost"). The copy is checked against
// the original's size and modification time, and keeps a batch's forks
// on one build even if the suite binary is rebuilt mid-batch. Where the
// copy cannot be made or run (no space, noexec temp dir) the forks
// execute the original: the image only makes starts cheaper.
package forkimage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// An Image is the file forks execute.
type Image struct {
	// Path is what the forks execute: the copy, or the original where
	// the copy could not be made.
	Path string
	// Dir is the copy's private directory; "" for the original.
	Dir string
}

// DirPrefix begins the name of an image's directory.
const DirPrefix = "benchspec-exe-"

// writeSize is the size of the write(2)s that copy the binary: large
// enough for the page cache to allocate large folios.
const writeSize = 4 << 20

// New copies exe into a new private directory under the temporary
// directory. On any failure it returns the original.
func New(exe string) Image {
	img, err := Copy(exe, os.TempDir())
	if err != nil {
		return Image{Path: exe}
	}
	return img
}

// Copy copies exe into a new directory under parent, as an executable
// file of the same name, and checks that exe did not change meanwhile.
func Copy(exe, parent string) (Image, error) {
	src, err := os.Open(exe)
	if err != nil {
		return Image{}, err
	}
	defer src.Close()
	before, err := src.Stat()
	if err != nil {
		return Image{}, err
	}
	if !before.Mode().IsRegular() {
		return Image{}, fmt.Errorf("%s is not a regular file", exe)
	}
	dir, err := os.MkdirTemp(parent, DirPrefix+"*")
	if err != nil {
		return Image{}, err
	}
	img := Image{Path: filepath.Join(dir, filepath.Base(exe)), Dir: dir}
	if err := img.write(src, before); err != nil {
		img.Remove()
		return Image{}, err
	}
	return img, nil
}

func (img Image) write(src *os.File, before os.FileInfo) error {
	var st unix.Statfs_t
	if err := unix.Statfs(img.Dir, &st); err != nil {
		return err
	}
	if st.Flags&unix.ST_NOEXEC != 0 {
		return errors.New("the temporary directory is mounted noexec")
	}
	dst, err := os.OpenFile(img.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return err
	}
	// Plain reads and writes (io.Copy would hand the copy to
	// copy_file_range, which splices it in pipe-buffer pieces).
	buf := make([]byte, writeSize)
	var n int64
	for {
		m, rerr := src.Read(buf)
		if m > 0 {
			if _, err := dst.Write(buf[:m]); err != nil {
				dst.Close()
				return err
			}
			n += int64(m)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			dst.Close()
			return rerr
		}
	}
	if err := dst.Close(); err != nil {
		return err
	}
	after, err := src.Stat()
	if err != nil {
		return err
	}
	if n != before.Size() || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		return errors.New("the binary changed while it was copied")
	}
	return os.Chmod(img.Path, 0o500)
}

// Remove deletes the copy; the original is left alone.
func (img Image) Remove() {
	if img.Dir != "" {
		os.RemoveAll(img.Dir)
	}
}
