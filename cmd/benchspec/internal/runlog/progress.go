package runlog

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/benchspec/benchspec/executor"
	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/termsafe"
	"github.com/benchspec/benchspec/plan"
)

// What `run` shows on stderr while a batch runs:
//
//   - On a terminal (stderr is a TTY and CI is not set): a live progress
//     bar — forks done of all, the current run and fork, and the ETA
//     (the plan's estimate corrected by what has been measured, falling
//     while a fork runs). It replaces the JMH run log,
//     whose lines would scroll the bar away; failed forks still print a
//     line above it. --verbose shows the run log instead of the bar.
//   - Elsewhere (a pipe, a file, CI=true): one plain timestamped line per
//     run, when it ends — nothing that redraws, and a log a person reads
//     (the run log of a main job was a thousand lines). With --verbose,
//     the run log, as JMH writes it, and a line per fork instead.
//   - --quiet: neither.
//
// The report is the same in every case.

// Display returns the observer of a batch that writes to stderr, and a
// function to call when the batch has ended. done are the forks a
// resumed batch has already (nil for none): the line per run counts
// the runs left to run.
func Display(stderr io.Writer, p *plan.Plan, done []protocol.ForkResult, quiet, verbose bool) (executor.Observer, func()) {
	tty := interactive(stderr)
	switch {
	case quiet:
		return nil, func() {}
	case verbose && tty:
		return New(stderr, p), func() {}
	case verbose:
		return fanOut{New(stderr, p), newLines(stderr, p, time.Now)}, func() {}
	case tty:
		b := newBar(stderr, p)
		return b, b.close
	}
	l := newRunLines(stderr, p, time.Now)
	l.all = runsLeft(p, done)
	return l, func() {}
}

// runsLeft is the number of p's runs a batch that resumes the forks done
// runs: those with a fork not done, unless a done fork failed (the run
// is over).
func runsLeft(p *plan.Plan, done []protocol.ForkResult) int {
	forks, failed := map[int]int{}, map[int]bool{}
	for _, f := range done {
		forks[f.Run]++
		failed[f.Run] = failed[f.Run] || f.Failed()
	}
	left := 0
	for i := range p.Runs {
		if !failed[i] && forks[i] < p.Runs[i].ForkCount() {
			left++
		}
	}
	return left
}

// interactive reports whether w is a terminal a person watches: a TTY,
// and not a CI job (CI=true, as GitHub Actions, GitLab CI and most others
// set it, even when they give the job a pseudo-terminal).
func interactive(w io.Writer) bool {
	if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fanOut tells every observer in turn.
type fanOut []executor.Observer

func (o fanOut) RunStart(r *plan.Run) {
	for _, x := range o {
		x.RunStart(r)
	}
}

func (o fanOut) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	for _, x := range o {
		x.ForkStart(r, fork, total, warmup, done, all)
	}
}

func (o fanOut) Iteration(r *plan.Run, fork int, it *protocol.Iteration) {
	for _, x := range o {
		x.Iteration(r, fork, it)
	}
}

func (o fanOut) ForkEnd(r *plan.Run, f *protocol.ForkResult) {
	for _, x := range o {
		x.ForkEnd(r, f)
	}
}

func (o fanOut) RunEnd(r *plan.Run, forks []protocol.ForkResult) {
	for _, x := range o {
		x.RunEnd(r, forks)
	}
}

// progress is the state every display keeps: where the batch is, and its
// ETA.
type progress struct {
	eta       *ETA
	done, all int
	name      string    // of the running fork
	started   time.Time // of the running fork
}

func (p *progress) forkStart(r *plan.Run, fork, total int, warmup bool, done, all int, now time.Time) {
	p.done, p.all = done, all
	p.name = termsafe.Line(r.Key + " " + forkOrdinal(fork, total, warmup, r.Settings.WarmupForks))
	p.started = now
	p.eta.Start(r)
}

func (p *progress) forkEnd(r *plan.Run, f *protocol.ForkResult) {
	p.eta.End(r, f.Wall)
	p.done++
	p.started = time.Time{}
}

// The displays show forks, not runs or iterations.
func (p *progress) RunStart(*plan.Run)                            {}
func (p *progress) Iteration(*plan.Run, int, *protocol.Iteration) {}
func (p *progress) RunEnd(*plan.Run, []protocol.ForkResult)       {}

// left is the ETA at now.
func (p *progress) left(now time.Time) time.Duration {
	var elapsed time.Duration
	if !p.started.IsZero() {
		elapsed = now.Sub(p.started)
	}
	return p.eta.Left(p.done, p.all, elapsed)
}

// lines writes one plain line per fork when it ends:
//
//	2026-01-15T02:31:07Z [3/12] sqrt.Sunk:avgt fork 2 of 3: ok in 1.21s, ETA 00:00:41
type lines struct {
	w   io.Writer
	now func() time.Time
	progress
}

func newLines(w io.Writer, p *plan.Plan, now func() time.Time) *lines {
	return &lines{w: w, now: now, progress: progress{eta: NewETA(p)}}
}

func (l *lines) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	l.forkStart(r, fork, total, warmup, done, all, l.now())
}

func (l *lines) ForkEnd(r *plan.Run, f *protocol.ForkResult) {
	l.forkEnd(r, f)
	now := l.now()
	status := "ok"
	if f.Failed() {
		status = "FAILED: " + firstLine(f.Err) + ","
	}
	fmt.Fprintf(l.w, "%s [%d/%d] %s: %s in %s, ETA %s\n", now.UTC().Format(time.RFC3339), l.done, l.all,
		l.name, status, f.Wall.Round(10*time.Millisecond), clock(l.left(now)))
}

// runLines writes one plain line per run when it ends:
//
//	2026-01-15T02:31:07Z [3/12] sqrt.Sunk:avgt: ok, 3 forks in 3.6s, ETA 00:00:41
//	2026-01-15T02:31:09Z [4/12] sqrt.Crash:ss: FAILED (fork 2: exit status 2), 3 forks in 1.2s, ETA 00:00:38
type runLines struct {
	w         io.Writer
	now       func() time.Time
	runs, all int
	started   map[int]time.Time // by run index: its first fork's start
	progress
}

func newRunLines(w io.Writer, p *plan.Plan, now func() time.Time) *runLines {
	return &runLines{w: w, now: now, all: len(p.Runs), started: map[int]time.Time{}, progress: progress{eta: NewETA(p)}}
}

func (l *runLines) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	now := l.now()
	if _, ok := l.started[r.Index]; !ok {
		l.started[r.Index] = now
	}
	l.forkStart(r, fork, total, warmup, done, all, now)
}

func (l *runLines) ForkEnd(r *plan.Run, f *protocol.ForkResult) { l.forkEnd(r, f) }

func (l *runLines) RunEnd(r *plan.Run, forks []protocol.ForkResult) {
	now := l.now()
	l.runs++
	l.all = max(l.all, l.runs) // a resumed run a precision grows past its done forks
	status := "ok"
	for _, f := range forks {
		if f.Failed() {
			status = fmt.Sprintf("FAILED (fork %d: %s)", f.Fork, firstLine(f.Err))
			break
		}
	}
	took := time.Duration(0)
	if t, ok := l.started[r.Index]; ok {
		took = now.Sub(t)
		delete(l.started, r.Index)
	}
	fmt.Fprintf(l.w, "%s [%d/%d] %s: %s, %s in %s, ETA %s\n", now.UTC().Format(time.RFC3339), l.runs, l.all,
		r.Key, status, plural(len(forks)), took.Round(10*time.Millisecond), clock(l.left(now)))
}

// bar is the live progress bar of a terminal, redrawn in place:
//
//	45% [██████████▊             ] (9/20) ETA 00:00:41  sqrt.Sunk:avgt fork 2 of 3
//
// A ticker redraws it twice a second so that the ETA falls while a fork
// runs. It is one line of text, drawn here rather than with a
// progress-bar library.
type bar struct {
	w     io.Writer
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup

	mu sync.Mutex // guards progress and desc: the executor and the ticker share them
	progress
	desc string // the text after the bar
}

// barWidth is the bar's width in characters.
const barWidth = 24

func newBar(w io.Writer, p *plan.Plan) *bar {
	b := &bar{w: w, start: time.Now(), stop: make(chan struct{}), progress: progress{eta: NewETA(p)}}
	for i := range p.Runs {
		b.all += p.Runs[i].ForkCount()
	}
	b.mu.Lock()
	b.desc = b.describe(time.Now())
	b.draw()
	b.mu.Unlock()
	b.wg.Add(1)
	go b.tick()
	return b
}

func (b *bar) tick() {
	defer b.wg.Done()
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case now := <-t.C:
			b.mu.Lock()
			b.desc = b.describe(now)
			b.draw()
			b.mu.Unlock()
		}
	}
}

// describe is the text after the bar: the ETA and the running fork.
func (b *bar) describe(now time.Time) string {
	d := "ETA " + clock(b.left(now))
	if b.name != "" {
		d += "  " + b.name
	}
	return d
}

// draw redraws the bar's line; the caller holds mu.
func (b *bar) draw() {
	fmt.Fprintf(b.w, "\r%s\x1b[K", barLine(b.done, b.all, b.desc))
}

// barLine is the bar's text: percentage, bar (eighths of a block at its
// end), count, description.
func barLine(done, all int, desc string) string {
	all = max(all, 1)
	done = min(max(done, 0), all)
	eighths := barWidth * 8 * done / all
	bar := strings.Repeat("█", eighths/8)
	if r := eighths % 8; r > 0 {
		bar += string(rune('█' + 8 - r)) // ▏ … ▉: U+258F down to U+2589
	}
	bar += strings.Repeat(" ", barWidth-utf8.RuneCountInString(bar))
	return fmt.Sprintf("%3d%% [%s] (%d/%d) %s", 100*done/all, bar, done, all, desc)
}

func (b *bar) ForkStart(r *plan.Run, fork, total int, warmup bool, done, all int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forkStart(r, fork, total, warmup, done, all, time.Now())
	b.desc = b.describe(time.Now())
	b.draw()
}

func (b *bar) ForkEnd(r *plan.Run, f *protocol.ForkResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	name := b.name
	b.forkEnd(r, f)
	b.name = ""
	b.desc = b.describe(time.Now())
	if f.Failed() {
		fmt.Fprintf(b.w, "\r\x1b[K%s FAILED: %s\n", name, firstLine(f.Err))
	}
	b.draw()
}

// close stops the ticker and leaves the bar's last state on its line.
func (b *bar) close() {
	close(b.stop)
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.desc = fmt.Sprintf("%d of %d forks in %s", b.done, b.all, time.Since(b.start).Round(100*time.Millisecond))
	b.draw()
	fmt.Fprintln(b.w)
}

// plural is "1 fork" or "n forks".
func plural(n int) string {
	if n == 1 {
		return "1 fork"
	}
	return fmt.Sprintf("%d forks", n)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return termsafe.Line(line)
}
