package executor

import (
	"os/exec"
	"runtime"
	"testing"
)

// onlyKnownChildren lets reap skip its scans of /proc: it must see a
// child that the executor did not start, and must not claim anything
// where this process is not a subreaper.
func TestOnlyKnownChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	if onlyKnownChildren() {
		t.Fatal("true while this process is not a child subreaper")
	}
	defer beParent()()
	if !onlyKnownChildren() {
		t.Skip("no /proc/PID/task/TID/children here, or this test binary has children of its own")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if onlyKnownChildren() {
		t.Error("true with a child (sleep) the executor did not start")
	}
	started.Store(cmd.Process.Pid, true)
	if !onlyKnownChildren() {
		t.Error("false when the only child is one the executor started")
	}
	started.Delete(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	if !onlyKnownChildren() {
		t.Error("false after the child was reaped")
	}
}
