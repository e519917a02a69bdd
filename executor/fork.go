package executor

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
)

// runFork runs one assignment in a fresh process of the suite binary and
// collects what it reports. Every way a fork can go wrong ends up as
// ForkResult.Err with the tail of its output; runFork itself never fails.
//
// The fork runs in a process group of its own. Whatever way it ends, the
// group is killed afterwards, so nothing it started survives it; a fork
// that leaves processes running after it exited fails for it.
//
// A fork of a duet (duet not nil) gets a pipe for its standard input,
// where the duet releases it into each iteration.
func runFork(ctx context.Context, r *plan.Run, a *protocol.Assignment, opts Options, obs Observer, g *guard, mark string, scratch *scratchDirs, duet *duetSide) protocol.ForkResult {
	fr := protocol.ForkResult{Run: a.Run.Index, Fork: a.Fork, Warmup: a.Warmup, ExitStatus: -1}
	defer duet.leave() // however it ends, the partner goes on
	limits, err := forkLimits(r.Settings.Env)
	if err != nil {
		fr.Err = err.Error()
		return fr
	}
	// A suite's fork runs in a scratch directory of its own, so that what
	// its benchmark does to its working directory (write, delete) cannot
	// touch the batch's files. A package's fork runs its test binary in
	// the package's directory, as go test does, for testdata.
	dir, exe := "", opts.Self
	if a.Run.GoTest == nil {
		exe = cmp.Or(r.Executable, opts.Executable)
		if dir, err = scratch.take(); err != nil {
			fr.Err = fmt.Sprintf("creating the fork's working directory: %v", err)
			return fr
		}
		defer removeDir(dir)
	}
	start := time.Now()
	assignment, err := json.Marshal(a)
	if err != nil {
		fr.Err = fmt.Sprintf("encoding the fork's assignment: %v", err)
		return fr
	}
	var stdin *os.File
	if duet != nil {
		if stdin, err = duet.open(); err != nil {
			fr.Err = fmt.Sprintf("creating the duet's pipe: %v", err)
			return fr
		}
	}
	p, err := startProcessIn(exe, dir, forkEnv(r, assignment, mark), mark, opts.TailBytes, stdin)
	if stdin != nil {
		stdin.Close() // the fork has its copy
	}
	if err != nil {
		fr.Err = fmt.Sprintf("starting the fork: %v", err)
		return fr
	}
	defer p.close()
	fr.PID = p.pid
	g.watch(p.pid)
	defer g.forget(p.pid)

	var failure string
	finished := false
	if err := applyLimits(p.pid, limits); err != nil {
		p.kill()
		failure = err.Error()
	} else {
		if dir != "" {
			// While the fork's process starts (its exec and runtime
			// initialisation take milliseconds, the benchmark has not
			// begun), make the next fork's directory.
			scratch.prepare()
		}
		failure, finished = collect(ctx, p, r, a, &fr, obs, duet)
	}
	killedLate := p.finish()
	if finished && failure == "" {
		failure = p.trailing()
	}
	fr.Wall = time.Since(start)
	duet.ended(p.state, fr.Wall)
	fr.ExitStatus = exitStatus(p.state)
	if fr.Err = verdict(p, failure, finished, killedLate); fr.Err != "" {
		fr.StderrTail = p.out.String()
		fr.Iterations = nil
		fr.Metrics = nil
		fr.Profiles = nil
	}
	return fr
}

// scratchDirs hands out the scratch directories of an execution's
// forks, one fresh directory per fork. The next fork's is made ahead,
// while the current fork's process starts (prepare), so that no mkdir
// stands between one fork's end and the next one's exec; close removes
// the one made ahead and not used. Their names carry the batch's mark
// (scratchPrefix), so that the guard can remove those a killed parent
// left.
type scratchDirs struct {
	prefix string // scratchPrefix(mark)
	spare  string
}

// scratchPrefix is the name prefix of the scratch directories of the
// batch with mark, in os.TempDir().
func scratchPrefix(mark string) string { return "benchspec-fork-" + mark + "-" }

// removeScratch removes the scratch directories of the batch with mark
// that are left in os.TempDir(): the guard's last act, for a parent that
// was killed between making one and removing it. mark must be one
// newBatchMark made: a mark with a pattern character in it would match
// another batch's directories.
func removeScratch(mark string) {
	if !validBatchMark(mark) {
		return
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), scratchPrefix(mark)+"*"))
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			removeDir(d)
		}
	}
}

// take returns a new, empty directory for a fork: the one made ahead if
// it is still there, else a new one.
func (s *scratchDirs) take() (string, error) {
	if d := s.spare; d != "" {
		s.spare = ""
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			return d, nil
		}
		removeDir(d) // replaced by something else meanwhile (a fork's doing)
	}
	return os.MkdirTemp("", s.prefix)
}

// prepare makes the next fork's directory ahead, unless there is one;
// a failure is left for take to meet and report.
func (s *scratchDirs) prepare() {
	if s.spare == "" {
		s.spare, _ = os.MkdirTemp("", s.prefix)
	}
}

// close removes the directory made ahead, if any.
func (s *scratchDirs) close() {
	if s.spare != "" {
		removeDir(s.spare)
		s.spare = ""
	}
}

// removeDir removes a fork's scratch directory: one system call when the
// fork left it empty, as most do.
func removeDir(dir string) {
	if syscall.Rmdir(dir) != nil {
		os.RemoveAll(dir)
	}
}

// verdict is why a fork that has ended failed, or "" when it did not:
// the failure collect saw, else what its end says (a fork that did not
// finish, exited badly or had to be killed), and in any case the
// processes it left behind.
func verdict(p *process, failure string, finished, killedLate bool) string {
	switch {
	case failure != "":
	case killedLate && finished:
		failure = fmt.Sprintf("the fork reported its results but did not exit within %s; killed", exitGrace)
	case killedLate:
		failure = fmt.Sprintf("the fork closed its result pipe (file descriptor %d) without reporting its results and did not exit within %s; killed", protocol.ResultFD, exitGrace)
	case !finished && p.pipeClosed:
		failure = fmt.Sprintf("the benchmark closed or replaced file descriptor %d (the result pipe) while running; then the %s", protocol.ResultFD, exitReason(p))
	case !finished:
		failure = exitReason(p)
	case exitStatus(p.state) != 0:
		failure = "after reporting, " + exitReason(p)
	}
	var left []string
	if len(p.strays) > 0 {
		left = append(left, fmt.Sprintf("the fork left %d process(es) of its group running after it exited: %s; killed", len(p.strays), strings.Join(p.strays, ", ")))
	}
	if len(p.escaped) > 0 {
		left = append(left, fmt.Sprintf("the fork left %d process(es) outside its group (another process group or session) running after it exited: %s; killed", len(p.escaped), strings.Join(p.escaped, ", ")))
	}
	switch {
	case len(left) == 0:
		return failure
	case failure == "":
		return strings.Join(left, "; ")
	}
	return failure + " (" + strings.Join(left, "; ") + ")"
}

// collect reads the fork's messages until it reports completion or a
// failure, its result pipe ends, it hangs past the per-iteration timeout,
// or the batch is interrupted. It kills the fork's group when the fork
// cannot be trusted to end by itself (garbage, timeout, interruption).
func collect(ctx context.Context, p *process, r *plan.Run, a *protocol.Assignment, fr *protocol.ForkResult, obs Observer, duet *duetSide) (failure string, finished bool) {
	timeout := r.Settings.Timeout
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	// The stream expects the iterations the fork was told to run: a
	// precision may have added some to the run's.
	told := *r
	told.Settings.Measurement.Iterations = a.Run.Settings.Measurement.Iterations
	st := newStream(&told)
	st.started = p.start
	exited := p.exited
	var drained <-chan time.Time
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				p.pipeClosed = p.closedResultPipe()
				return "", false
			}
			if m.err != nil {
				p.kill()
				return m.err.Error(), false
			}
			timer.Reset(timeout)
			if err := st.message(&m.msg); err != nil {
				p.kill()
				return err.Error(), false
			}
			switch m.msg.Type {
			case protocol.MsgHello:
				if m.msg.Timer != nil {
					fr.Timer = *m.msg.Timer
				}
				if duet != nil && !m.msg.Duet {
					duet.deafen()
				}
				duet.arrive()
			case protocol.MsgIteration:
				it := m.msg.Iteration
				fr.Iterations = append(fr.Iterations, *it)
				obs.Iteration(r, a.Fork, it)
				duet.arrive()
			case protocol.MsgDone:
				for unit, v := range m.msg.Metrics {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						p.kill()
						return fmt.Sprintf("the fork reported metric %q as %v", unit, v), false
					}
				}
				if err := checkProfiles(a.ProfileDir, m.msg.Profiles); err != nil {
					p.kill()
					return err.Error(), false
				}
				fr.Metrics, fr.Profiles = m.msg.Metrics, m.msg.Profiles
				return "", true
			case protocol.MsgError:
				return m.msg.Error, false
			case protocol.MsgSkip:
				if len(fr.Iterations) > 0 {
					p.kill()
					return "the fork reported a skip after iterations", false
				}
				fr.Skipped = m.msg.Skip
				if fr.Skipped == "" {
					fr.Skipped = "skipped without a reason"
				}
				return "", true
			default:
				p.kill()
				return fmt.Sprintf("unknown message type %q on the result pipe", m.msg.Type), false
			}
		case <-exited:
			// What the fork wrote before it exited is still to be read,
			// but a process it started may hold the pipe open: end the
			// group, then read on until EOF.
			exited = nil
			p.reap()
			drained = time.After(drainGrace)
		case <-drained:
			return "", false
		case <-timer.C:
			p.dump()
			failure := fmt.Sprintf("timed out after %s in %s", timeout, st.where())
			if d := p.watch.Deadlock(); d != "" {
				failure += "; every goroutine was blocked (a deadlock): " + d
			}
			return failure, false
		case <-ctx.Done():
			p.kill()
			return "interrupted", false
		}
	}
}

// WithoutRoles is env less the variables that give a process a role in
// a batch (protocol.EnvAssignment and the like: a child must not inherit
// its parent's) and those that override replaces.
func WithoutRoles(env []string, override map[string]string) []string {
	out := make([]string, 0, len(env)+len(override)+2)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := override[k]; ok || slices.Contains(protocol.RoleVars, k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// forkEnv is the parent's environment, the assignment (encoded), and
// the run's env settings, which win over the inherited ones.
func forkEnv(r *plan.Run, assignment []byte, mark string) []string {
	env := WithoutRoles(os.Environ(), r.Settings.Env)
	for k, v := range r.Settings.Env {
		env = append(env, k+"="+v)
	}
	return append(env, protocol.EnvBatch+"="+mark, protocol.EnvAssignment+"="+string(assignment))
}

type lineMsg struct {
	msg protocol.Message
	err error
}

// readMessages decodes the result pipe line by line until EOF. A line that
// is not a message is reported once and ends the reading.
func readMessages(r io.Reader, out chan<- lineMsg) {
	defer close(out)
	// A line (message) may be long (a sample-mode histogram, many
	// metrics), within protocol's bounds (bounds.go). Most are a few
	// hundred bytes.
	lr := newLineReader(r)
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
			return
		}
		if err != nil {
			if !isOverBound(err) {
				err = fmt.Errorf("reading the result pipe: %w", err)
			}
			out <- lineMsg{err: err}
			return
		}
		var m protocol.Message
		if err := json.Unmarshal(line, &m); err != nil || m.Type == "" {
			out <- lineMsg{err: fmt.Errorf("garbage on the result pipe (file descriptor %d): %q", protocol.ResultFD, clip(string(line), 80))}
			return
		}
		if err := boundMessage(&m); err != nil {
			out <- lineMsg{err: err}
			return
		}
		out <- lineMsg{msg: m}
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func exitStatus(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	return ps.ExitCode()
}

// exitReason says how a fork ended, naming the last panic or fatal error
// in its output when there is one.
func exitReason(p *process) string {
	ps := p.state
	var why string
	switch {
	case ps == nil:
		why = fmt.Sprintf("fork did not run: %v", p.werr)
	case !ps.Exited():
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			why = fmt.Sprintf("fork killed by signal %s", ws.Signal())
		} else {
			why = "fork ended abnormally: " + ps.String()
		}
	case ps.ExitCode() == 0:
		why = "fork exited with status 0 before reporting its results (did the benchmark call os.Exit?)"
	default:
		why = fmt.Sprintf("fork exited with status %d", ps.ExitCode())
	}
	if m := p.watch.Crash(); m != "" {
		why += ": " + m
	}
	return why
}
