package executor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// runFork runs one assignment in a fresh process of the suite binary and
// collects what it reports. Every way a fork can go wrong ends up as
// ForkResult.Err with the tail of its output; runFork itself never fails.
func runFork(ctx context.Context, a *Assignment, opts Options, obs Observer) ForkResult {
	fr := ForkResult{Run: a.Run.Index, Fork: a.Fork, Warmup: a.Warmup, ExitStatus: -1}
	pr, pw, err := os.Pipe()
	if err != nil {
		fr.Err = fmt.Sprintf("creating the result pipe: %v", err)
		return fr
	}
	defer pr.Close()
	out := newTail(opts.TailBytes)
	cmd := exec.Command(opts.Executable)
	cmd.Env = forkEnv(a)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{pw} // fd 3 = ResultFD
	// Its own process group, so that a timeout or our interruption can end
	// the fork together with anything it started; and killed with us.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// A grandchild holding the fork's stdout must not keep us waiting.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		fr.Err = fmt.Sprintf("starting the fork: %v", err)
		return fr
	}
	pw.Close()
	pgid := cmd.Process.Pid
	fr.PID = cmd.Process.Pid
	killGroup := func() { syscall.Kill(-pgid, syscall.SIGKILL) }

	msgs := make(chan lineMsg)
	go readMessages(pr, msgs)

	timeout := a.Run.Settings.Timeout
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var failure string
	finished := false
	phase, index := PhaseWarmup, 0
	if a.Run.Settings.Warmup.Iterations == 0 {
		phase = PhaseMeasurement
	}
loop:
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				break loop
			}
			if m.err != nil {
				failure = m.err.Error()
				killGroup()
				break loop
			}
			timer.Reset(timeout)
			switch m.msg.Type {
			case MsgHello:
				if m.msg.Timer != nil {
					fr.Timer = *m.msg.Timer
				}
			case MsgIteration:
				it := m.msg.Iteration
				if it == nil {
					failure = "malformed iteration message on the result pipe"
					killGroup()
					break loop
				}
				fr.Iterations = append(fr.Iterations, *it)
				obs.Iteration(&a.Run, a.Fork, it)
				phase, index = it.Phase, it.Index
			case MsgDone:
				fr.Metrics, fr.Profiles = m.msg.Metrics, m.msg.Profiles
				finished = true
				break loop
			case MsgError:
				failure = m.msg.Error
				break loop
			default:
				failure = fmt.Sprintf("unknown message type %q on the result pipe", m.msg.Type)
				killGroup()
				break loop
			}
		case <-timer.C:
			failure = fmt.Sprintf("timed out after %s in %s", timeout, nextIteration(a, phase, index))
			killGroup()
			break loop
		case <-ctx.Done():
			failure = "interrupted"
			killGroup()
			break loop
		}
	}
	// Drain the reader so it can end once the pipe is closed below.
	go func() {
		for range msgs {
		}
	}()
	// A fork that reported but does not exit is ended, not waited for.
	watchdog := time.AfterFunc(10*time.Second, killGroup)
	werr := cmd.Wait()
	watchdog.Stop()
	// Whatever the fork started in its group goes with it.
	killGroup()
	fr.Wall = time.Since(start)
	fr.ExitStatus = exitStatus(cmd.ProcessState)
	if failure == "" {
		switch {
		case !finished:
			failure = exitReason(cmd.ProcessState, werr, out.String())
		case fr.ExitStatus != 0:
			failure = "after reporting, " + exitReason(cmd.ProcessState, werr, out.String())
		}
	}
	if failure != "" {
		fr.Err = failure
		fr.StderrTail = out.String()
		fr.Iterations = nil
		fr.Metrics = nil
	}
	return fr
}

// forkEnv is the parent's environment, the assignment, and the run's env
// settings, which win over the inherited ones.
func forkEnv(a *Assignment) []string {
	assignment, _ := json.Marshal(a)
	env := make([]string, 0, len(os.Environ())+len(a.Run.Settings.Env)+1)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, override := a.Run.Settings.Env[k]; override || k == EnvAssignment {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range a.Run.Settings.Env {
		env = append(env, k+"="+v)
	}
	return append(env, EnvAssignment+"="+string(assignment))
}

// nextIteration names the iteration after the last one reported.
func nextIteration(a *Assignment, phase string, index int) string {
	s := a.Run.Settings
	if phase == PhaseWarmup && index >= s.Warmup.Iterations {
		phase, index = PhaseMeasurement, 0
	}
	return fmt.Sprintf("%s iteration %d", phase, index+1)
}

type lineMsg struct {
	msg Message
	err error
}

// readMessages decodes the result pipe line by line until EOF. A line that
// is not a message is reported once and ends the reading.
func readMessages(r *os.File, out chan<- lineMsg) {
	defer close(out)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var m Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.Type == "" {
			line := sc.Text()
			if len(line) > 80 {
				line = line[:80] + "…"
			}
			out <- lineMsg{err: fmt.Errorf("garbage on the result pipe: %q", line)}
			return
		}
		out <- lineMsg{msg: m}
	}
	if err := sc.Err(); err != nil {
		out <- lineMsg{err: fmt.Errorf("reading the result pipe: %w", err)}
	}
}

func exitStatus(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	return ps.ExitCode()
}

var panicLine = regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*)$`)

// exitReason says why a fork ended without reporting completion, naming
// the panic or fatal error from its output when there is one.
func exitReason(ps *os.ProcessState, werr error, output string) string {
	var why string
	switch {
	case ps == nil:
		why = fmt.Sprintf("fork did not run: %v", werr)
	case !ps.Exited():
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			why = fmt.Sprintf("fork killed by signal %s", ws.Signal())
		} else {
			why = "fork ended abnormally: " + ps.String()
		}
	case ps.ExitCode() == 0:
		why = "fork exited with status 0 before reporting its results (did the benchmark call os.Exit or close the result pipe?)"
	default:
		why = fmt.Sprintf("fork exited with status %d", ps.ExitCode())
	}
	if m := panicLine.FindString(output); m != "" {
		why += ": " + m
	}
	if werr != nil && errors.Is(werr, exec.ErrWaitDelay) {
		why += " (a process it started kept its output open)"
	}
	return why
}
