package child

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const envHelper = "CHILD_TEST_HELPER"

// The test binary doubles as a parent that starts a child with
// StartLocked (see helper).
func TestMain(m *testing.M) {
	if os.Getenv(envHelper) != "" {
		os.Exit(helper())
	}
	os.Exit(m.Run())
}

// helper starts `sleep 600` with Pdeathsig, then makes the Go runtime
// end OS threads (goroutines that exit locked to theirs), and says on
// stdout the sleep's pid and whether it outlived that; then it waits to
// be killed.
func helper() int {
	// The main thread is never ended: keep StartLocked's goroutine off it.
	runtime.LockOSThread()
	cmd := exec.Command("sleep", "600")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	exited, err := StartLocked(cmd)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	for range 20 {
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			close(done)
		}()
		<-done
	}
	runtime.GC()
	state := "alive"
	select {
	case err := <-exited:
		state = fmt.Sprintf("died: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	fmt.Println(cmd.Process.Pid, state)
	select {}
}

// A child started with StartLocked outlives the threads the runtime ends
// while it runs, and dies (Pdeathsig) when the process that started it
// is killed.
func TestStartLockedPdeathsig(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Pdeathsig is Linux only")
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), envHelper+"=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the helper said nothing: %v", err)
	}
	f := strings.Fields(line)
	pid, err := strconv.Atoi(f[0])
	if err != nil || len(f) < 2 {
		t.Fatalf("the helper said %q", line)
	}
	if state := strings.Join(f[1:], " "); state != "alive" {
		t.Fatalf("the child %d did not outlive threads ending in its parent: %s", pid, state)
	}
	parent.Process.Kill()
	parent.Wait()
	// The child is killed and reaped (by init, or a subreaper) on the
	// kernel's schedule: wait generously for a busy machine.
	for deadline := time.Now().Add(30 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the child %d outlived its parent, killed with SIGKILL, by 30 s", pid)
		}
	}
}

// alive reports whether pid runs: exists and is no zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// The channel gets Wait's error once the child has exited: its exit
// status, after a wait long enough that the child is still running when
// StartLocked returns.
func TestStartLockedWait(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, tc := range []struct {
		script string
		code   int
	}{{"exit 0", 0}, {"exit 3", 3}, {"sleep 0.2; exit 5", 5}} {
		cmd := exec.Command("sh", "-c", tc.script)
		exited, err := StartLocked(cmd)
		if err != nil {
			t.Fatal(err)
		}
		err = <-exited
		var ee *exec.ExitError
		switch {
		case tc.code == 0 && err != nil:
			t.Errorf("%q: %v, want success", tc.script, err)
		case tc.code != 0 && (!errors.As(err, &ee) || ee.ExitCode() != tc.code):
			t.Errorf("%q: %v, want exit status %d", tc.script, err, tc.code)
		}
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != tc.code {
			t.Errorf("%q: ProcessState %v, want exit status %d", tc.script, cmd.ProcessState, tc.code)
		}
	}
	if _, err := StartLocked(exec.Command("/nonexistent/binary")); err == nil {
		t.Error("no error starting a binary that does not exist")
	}
}
