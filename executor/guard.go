package executor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/internal/forkimage"
	"github.com/benchspec/benchspec/internal/protocol"
)

// The guard is a small process started once per batch (Options.Guard).
// The parent tells it, on the guard's stdin, the process group of every
// fork it starts ("+PGID") and ends ("-PGID"), and the directory of the
// forks' copy of the suite binary ("rDIR", see internal/forkimage). When its stdin
// reaches EOF — the parent closed it, or died, even by SIGKILL — the
// guard kills the groups it still knows, then every process that carries
// the batch's mark (protocol.EnvBatch; EnvGuard's value is the mark),
// removes that directory and the forks' scratch directories the parent
// left (named after the mark, scratchPrefix), and exits.
//
// Pdeathsig alone kills only the fork itself when the parent dies; the
// processes the fork started live on in its group. The guard ends them.
const guardReady = "benchspec guard ready\n"

// guardStartTimeout bounds the wait for the guard's handshake. A binary
// that does not dispatch on EnvGuard never sends it; the batch then runs
// without a guard.
const guardStartTimeout = 5 * time.Second

// Guard is the guard process's entry point; it returns the exit status.
// It ignores SIGINT, SIGTERM and SIGHUP: a terminal's or a service
// manager's signal meant for the batch must not end the guard before it
// has done its job.
func Guard() int {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	notDumpable() // a fork may not open its memory, as the parent's (beParent)
	if _, err := io.WriteString(os.Stdout, guardReady); err != nil {
		return 2
	}
	os.Stdout.Close()
	groups := map[int]bool{}
	var images []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		if line[0] == 'r' {
			if dir := line[1:]; filepath.IsAbs(dir) && strings.HasPrefix(filepath.Base(dir), forkimage.DirPrefix) {
				images = append(images, dir)
			}
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pgid] = true
		case '-':
			delete(groups, pgid)
		}
	}
	for pgid := range groups {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	// Then the processes of the batch's forks that left their groups:
	// they carry the batch's mark (EnvGuard's value).
	if mark := os.Getenv(protocol.EnvGuard); len(mark) > 1 {
		sweep(mark, 0, false, 0)
	}
	// Last, the forks' copy of the suite binary and their scratch
	// directories, which the parent removes itself unless it was killed.
	for _, dir := range images {
		os.RemoveAll(dir)
	}
	removeScratch(os.Getenv(protocol.EnvGuard))
	return 0
}

// guard is the parent's handle on the guard process. A nil guard does
// nothing.
type guard struct {
	cmd  *exec.Cmd
	w    io.WriteCloser
	done chan struct{}
}

// startGuard starts exe as the guard and waits for its handshake.
func startGuard(exe, mark string) (*guard, error) {
	cmd := exec.Command(exe)
	cmd.Env = append(WithoutRoles(os.Environ(), nil), protocol.EnvGuard+"="+mark)
	// Its own group: a Ctrl-C at the terminal goes to the parent's group
	// and must not reach the guard.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	started.Store(cmd.Process.Pid, true)
	g := &guard{cmd: cmd, w: w, done: make(chan struct{})}
	ready := make(chan bool, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		ready <- line == guardReady
		io.Copy(io.Discard, r)
		cmd.Wait()
		started.Delete(cmd.Process.Pid)
		close(g.done)
	}()
	select {
	case ok := <-ready:
		if ok {
			return g, nil
		}
	case <-time.After(guardStartTimeout):
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	w.Close()
	return nil, fmt.Errorf("%s did not start as a guard (does it call benchspec.Main?)", exe)
}

func (g *guard) send(op byte, pgid int) {
	if g != nil {
		fmt.Fprintf(g.w, "%c%d\n", op, pgid)
	}
}

// image tells the guard the directory of the forks' copy of the suite
// binary, to remove if the parent dies without removing it.
func (g *guard) image(dir string) {
	if g != nil && dir != "" {
		fmt.Fprintf(g.w, "r%s\n", dir)
	}
}

// watch tells the guard about a fork's process group.
func (g *guard) watch(pgid int) { g.send('+', pgid) }

// forget tells the guard that a fork's group has been ended.
func (g *guard) forget(pgid int) { g.send('-', pgid) }

// stop ends the guard and waits for it.
func (g *guard) stop() {
	if g == nil {
		return
	}
	g.w.Close()
	select {
	case <-g.done:
	case <-time.After(guardStartTimeout):
		syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
	}
}
