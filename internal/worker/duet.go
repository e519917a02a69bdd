package worker

import (
	"os"

	"github.com/benchspec/benchspec/internal/protocol"
)

// duetBarrier is how a fork of a duet (protocol.Assignment.Duet) waits
// for its partner before each iteration: it reads one byte from its
// standard input, which the parent writes when both forks have reported
// the iteration before (or their hello). It is called outside the timed
// window, after the iteration's GC and setup, just before the timer
// starts. At the input's end (the partner ended) the fork goes on alone.
// Nil when the fork is not part of a duet.
func duetBarrier(a *protocol.Assignment) func() {
	if !a.Duet {
		return nil
	}
	open := true
	var b [1]byte
	return func() {
		for open {
			n, err := os.Stdin.Read(b[:])
			if n == 1 {
				return
			}
			if err != nil {
				open = false
			}
		}
	}
}
