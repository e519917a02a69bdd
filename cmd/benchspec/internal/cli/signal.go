package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// Interrupted is the cause (context.Cause) of a context that
// NotifyContext cancelled: the signal that arrived.
type Interrupted struct{ Signal os.Signal }

func (e *Interrupted) Error() string {
	if s, ok := e.Signal.(syscall.Signal); ok && unix.SignalName(s) != "" {
		return "interrupted by " + unix.SignalName(s)
	}
	return fmt.Sprintf("interrupted by %v", e.Signal)
}

// ExitStatus is the shell's convention for a process ended by the
// signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
func (e *Interrupted) ExitStatus() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// NotifyContext is signal.NotifyContext that records which signal
// arrived, as an *Interrupted cause, so that a command can exit with 130
// or 143. After the first signal the signals get their default action
// back: a second Ctrl-C ends the process at once (the journal keeps
// everything finished; the forks die with the parent).
//
// As with signal.Notify, a signal that was ignored when the program
// started (SIGINT for a background job of a non-interactive shell) is
// caught all the same: `kill -INT` must interrupt a batch wherever it
// was started.
func NotifyContext(parent context.Context, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	if len(sigs) > 0 { // Notify without signals would relay them all
		signal.Notify(ch, sigs...)
	}
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(&Interrupted{Signal: s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(context.Canceled)
	}
}

// interruptStatus is the exit status of a command whose context was
// cancelled: 128 + the signal's number, 130 when no signal is known.
func interruptStatus(ctx context.Context) int {
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in.ExitStatus()
	}
	return 128 + int(syscall.SIGINT)
}

// failStatus is the exit status of a command that could not go on:
// interruptStatus when a signal interrupted it (what failed then is the
// interruption's doing, not the input's), else status.
func failStatus(ctx context.Context, status int) int {
	if ctx.Err() != nil {
		return interruptStatus(ctx)
	}
	return status
}
