package worker

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// hostState is what a forks: 0 run must leave as it found it, since the
// next run of the host needs it: the host's standard files (its
// assignments come on stdin, its output goes to the parent's pipe) and
// its working directory. A run that closes or replaces one of them is
// failed with the cause, and the host ends, so that the next run gets a
// new host rather than failing for it.
type hostState struct {
	files [3]fileID
	std   [3]*os.File // os.Stdin, os.Stdout, os.Stderr as they were
	dir   string
}

// fileID is what identifies an open file: its device and inode.
type fileID struct{ dev, ino uint64 }

var stdNames = [3]string{"standard input (fd 0, the host's assignments)", "standard output (fd 1)", "standard error (fd 2)"}

// captureHost records the host's state before its first run.
func captureHost() *hostState {
	h := &hostState{std: [3]*os.File{os.Stdin, os.Stdout, os.Stderr}}
	for fd := range h.files {
		h.files[fd], _ = fdID(fd)
	}
	h.dir, _ = os.Getwd()
	return h
}

// check returns what a run changed of the host's state, or nil. The Go
// variables os.Stdin, os.Stdout and os.Stderr are put back as they were
// (a body may assign them; the files stay the same): only what cannot
// be put back fails the run.
func (h *hostState) check() error {
	os.Stdin, os.Stdout, os.Stderr = h.std[0], h.std[1], h.std[2]
	var broken []string
	for fd, want := range h.files {
		switch got, err := fdID(fd); {
		case err != nil:
			broken = append(broken, "closed its "+stdNames[fd])
		case got != want:
			broken = append(broken, "replaced its "+stdNames[fd])
		}
	}
	if dir, err := os.Getwd(); err != nil || dir != h.dir {
		broken = append(broken, "changed its working directory")
	}
	if len(broken) == 0 {
		return nil
	}
	return fmt.Errorf("the benchmark %s: forks: 0 runs share one process, which the next run needs as it was; "+
		"the host ends and the next forks: 0 run starts a new one", strings.Join(broken, ", "))
}

// fdID identifies the file open at fd.
func fdID(fd int) (fileID, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fileID{}, err
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, nil
}
