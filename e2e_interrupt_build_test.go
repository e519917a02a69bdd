package benchspec_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchspec/benchspec/examples/suitetest"
)

// TestInterruptDuringBuild (issue 36, class E): SIGINT while `run`
// builds a package's test binary exits 130 as an interruption, not 2 as
// a bad spec, and leaves nothing of the build running: the go command's
// process group, the compiler in it, is killed and waited for.
func TestInterruptDuringBuild(t *testing.T) {
	suitetest.SkipShort(t)
	parent := strings.TrimPrefix(suitetest.ParentEnv(t), "BENCHSPEC_PARENT=")
	pkg, err := filepath.Abs("executor/gotest/testdata/subbench")
	if err != nil {
		t.Fatal(err)
	}
	spec := writeSpec(t, "version: 1\nname: build\nbenchmarks:\n  - package: "+pkg+"\n    include: Sum\n")
	// An empty build cache: the standard library is compiled first,
	// for seconds.
	gocache := t.TempDir()
	cmd := exec.Command(parent, "run", "--allow-packages-outside-module", "--quiet", spec)
	cmd.Env = append(os.Environ(), "GOCACHE="+gocache, "BENCHSPEC_CACHE="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	building := func() []int { return withEnv("GOCACHE=" + gocache) }
	for len(compilers(building())) == 0 {
		select {
		case err := <-exited:
			t.Skipf("the build ended (%v) before a compiler was seen to interrupt; stderr:\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	<-exited
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "interrupted by SIGINT while building and listing; nothing ran") ||
		strings.Contains(stderr.String(), spec+":") {
		t.Errorf("exit %d, stderr:\n%s\nwant 130, the interruption named, no spec error", code, stderr.String())
	}
	if left := building(); len(left) > 0 {
		for _, pid := range left {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			t.Errorf("process %d of the build is still running: %.100s", pid, bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		}
	}
}

// withEnv lists the live processes whose environment holds kv.
func withEnv(kv string) []int {
	dirs, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		s := string(stat)
		if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); err != nil || len(f) == 0 || f[0] == "Z" {
			continue
		}
		if bytes.Contains(append([]byte{0}, env...), []byte("\x00"+kv+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// compilers are those of pids that run the compiler.
func compilers(pids []int) []int {
	var out []int
	for _, pid := range pids {
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil && filepath.Base(exe) == "compile" {
			out = append(out, pid)
		}
	}
	return out
}
