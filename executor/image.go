package executor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A forkImage is the file the batch's forks execute: a private copy of
// the suite binary, written once per batch into a directory of its own
// and removed when the batch ends.
//
// Why a copy. A freshly linked binary (go build, go run: the linker
// writes its output through a shared mapping) sits in the page cache in
// single 4 KiB pages, and every fork maps the binary's code and tables
// anew. Written once more with large write(2)s, the same bytes sit in
// large folios, which the kernel maps into a process more cheaply: on
// the 2-core PVM guest this was measured on (Linux 6.18, ext4,
// 2026-12-01) a bare process of the selfbench binary started and exited
// about 0.5 ms sooner from such a copy, with the same page faults. It is
// the same program, byte for byte (the copy is checked against the
// original's size and modification time before and after), and it also
// keeps a batch's forks on one build: rebuilding the suite binary while
// a nightly batch runs cannot mix two builds' forks in one report.
//
// The guard, when there is one, removes the copy if the parent is killed
// before it could.
//
// Where the copy cannot be made or run (no space, a temporary directory
// mounted noexec) the forks execute the original, as before: the image
// only makes starts cheaper.
type forkImage struct {
	path string // what the forks execute
	dir  string // the private directory to remove; "" for the original
}

// imageDirPrefix begins the name of an image's directory.
const imageDirPrefix = "benchspec-exe-"

// imageWriteSize is the size of the write(2)s that copy the binary:
// large enough for the page cache to allocate large folios.
const imageWriteSize = 4 << 20

// newForkImage copies exe into a new private directory under the
// temporary directory. On any failure it returns the original.
func newForkImage(exe string) forkImage {
	img, err := copyImage(exe, os.TempDir())
	if err != nil {
		return forkImage{path: exe}
	}
	return img
}

// copyImage copies exe into a new directory under parent, as an
// executable file of the same name, and checks that exe did not change
// meanwhile.
func copyImage(exe, parent string) (forkImage, error) {
	src, err := os.Open(exe)
	if err != nil {
		return forkImage{}, err
	}
	defer src.Close()
	before, err := src.Stat()
	if err != nil {
		return forkImage{}, err
	}
	if !before.Mode().IsRegular() {
		return forkImage{}, fmt.Errorf("%s is not a regular file", exe)
	}
	dir, err := os.MkdirTemp(parent, imageDirPrefix+"*")
	if err != nil {
		return forkImage{}, err
	}
	img := forkImage{path: filepath.Join(dir, filepath.Base(exe)), dir: dir}
	if err := img.write(src, before); err != nil {
		img.remove()
		return forkImage{}, err
	}
	return img, nil
}

func (img forkImage) write(src *os.File, before os.FileInfo) error {
	var st unix.Statfs_t
	if err := unix.Statfs(img.dir, &st); err != nil {
		return err
	}
	if st.Flags&unix.ST_NOEXEC != 0 {
		return errors.New("the temporary directory is mounted noexec")
	}
	dst, err := os.OpenFile(img.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return err
	}
	// Plain reads and writes (io.CopyBuffer would hand the copy to
	// copy_file_range, which splices it in pipe-buffer pieces).
	buf := make([]byte, imageWriteSize)
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
		return errors.New("the suite binary changed while it was copied")
	}
	return os.Chmod(img.path, 0o500)
}

// remove deletes the copy; the original is left alone.
func (img forkImage) remove() {
	if img.dir != "" {
		os.RemoveAll(img.dir)
	}
}
