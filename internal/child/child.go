// Package child starts child processes that must die with the process
// that started them: the executor's forks and a fork's go test binary.
package child

import (
	"os/exec"
	"runtime"
)

// StartLocked starts cmd from a goroutine locked to its OS thread for the
// child's whole life: Pdeathsig fires when the thread that started the
// child exits, not the process (go.dev/issue/27505). The channel gets
// Wait's error once the child has exited.
func StartLocked(cmd *exec.Cmd) (<-chan error, error) {
	started := make(chan error, 1)
	exited := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		exited <- cmd.Wait()
	}()
	return exited, <-started
}
