package worker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Lookup finds a registered benchmark body by name.
type Lookup func(name string) (Func, bool)

// BodyLookup finds a registered benchmark of either kind by name.
type BodyLookup func(name string) (Body, bool)

// SkipError is a benchmark that skipped itself (b.Skip): the run is
// skipped, not failed. Reason is its log, as go test prints it.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return "skipped: " + e.Reason }

// SkipReason is what the executor reads of a skip in an in-process run.
func (e *SkipError) SkipReason() string { return e.Reason }

// Output is what a fork reports besides its iterations.
type Output struct {
	Metrics  map[string]float64 // B.ReportMetric values, by unit
	Profiles map[string]string  // pprof files written, by kind
}

// RunFork runs one fork's assignment in this process: it calls fn once
// per thread, each with its own B whose Loop drives every warmup and
// measurement iteration, and sends each finished iteration (the threads'
// results combined) to emit. It fails when a body panicked or called
// Fatalf, returned before Loop reported false, or emit failed. emit must
// not keep the iteration once it returns: a fork of one thread reuses it
// for the next one.
func RunFork(a *protocol.Assignment, fn Func, clock Clock, rnd Rand, emit func(*protocol.Iteration) error) (*Output, error) {
	return RunBound(a, fn.bind(), clock, rnd, emit)
}

// RunBound is RunFork for a body bound to state the caller allocated
// (Bind): how the root package runs a func(*benchspec.B).
func RunBound(a *protocol.Assignment, bind Bind, clock Clock, rnd Rand, emit func(*protocol.Iteration) error) (*Output, error) {
	threads := a.Run.Settings.Threads
	if threads == protocol.ThreadsMax {
		threads = runtime.GOMAXPROCS(0)
	}
	binds := make([]Bind, max(threads, 1))
	for t := range binds {
		binds[t] = bind
	}
	return runThreads(a, binds, nil, clock, rnd, emit)
}

// runThreads runs one fork on len(binds) threads, thread t bound by
// binds[t]. sizes, for a benchmark group, is each member's number of
// threads (binds in member order); B.Thread then counts within the
// member.
func runThreads(a *protocol.Assignment, binds []Bind, sizes []int, clock Clock, rnd Rand, emit func(*protocol.Iteration) error) (*Output, error) {
	s := a.Run.Settings
	threads := len(binds)
	prof := newProfiler(s.Profilers, a.ProfileDir, a.Run.Key, a.Fork)
	// Iterations are encoded and sent on this goroutine, which the
	// package inits left with a grown stack, not on a body's: a goroutine
	// starts with 2 KiB of stack, which encoding and writing an iteration
	// outgrows, and the copy (with its page faults on the unwinding
	// tables) would land at the end of the fork's first iteration. The
	// group calls emit under its lock: one iteration at a time.
	its, errs := make(chan *protocol.Iteration), make(chan error)
	g := newGroup(threads, a.Run.Mode, prof, func(it *protocol.Iteration) error {
		its <- it
		return <-errs
	})
	g.sizes = sizes
	g.barrier = duetBarrier(a)
	if threads > 1 {
		rnd = &lockedRand{r: rnd}
	}
	bs := make([]*B, threads)
	runs := make([]func(), threads)
	member, first := 0, 0 // the member of thread t, and its first thread
	for t := range bs {
		if sizes != nil && t-first == sizes[member] {
			member, first = member+1, t
		}
		b, run := binds[t]()
		*b = B{thread: t - first, params: make(map[string]string, len(a.Run.Params))}
		for _, p := range a.Run.Params {
			b.params[p.Name] = p.Value
		}
		b.r = newRunner(&s, a.Run.Mode, clock, rnd, g)
		b.r.slot = t
		bs[t], runs[t] = b, run
	}
	// Every thread, the first one included, runs on a goroutine of its
	// own: a body that calls runtime.Goexit ends that goroutine, which
	// must not be the fork's main goroutine.
	exited := make(chan struct{}, threads)
	for t, b := range bs {
		go func() {
			defer func() { exited <- struct{}{} }()
			runBody(runs[t], b, g)
		}()
	}
	for running := threads; running > 0; {
		select {
		case it := <-its:
			errs <- emit(it)
		case <-exited:
			running--
		}
	}
	out := &Output{Metrics: forkMetrics(bs, sizes)}
	if prof != nil {
		files, err := prof.finish()
		if err != nil && g.failure() == nil {
			g.abort(err)
		}
		out.Profiles = files
	}
	if err := g.failure(); err != nil {
		return nil, err
	}
	return out, nil
}

// forkMetrics are the fork's B.ReportMetric values: thread 0's, as every
// thread runs the same body; in a group (sizes, threads per member),
// each member's first thread's, as each member runs its own, a later
// member's value for a unit replacing an earlier one's.
func forkMetrics(bs []*B, sizes []int) map[string]float64 {
	if sizes == nil {
		return bs[0].metrics
	}
	var out map[string]float64
	first := 0
	for _, n := range sizes {
		for unit, v := range bs[first].metrics {
			if out == nil {
				out = map[string]float64{}
			}
			out[unit] = v
		}
		first += n
	}
	return out
}

// runBody runs one thread's body, turning a panic, Fatalf or an early
// return into the fork's failure.
//
// A body that calls runtime.Goexit (directly, or through a helper meant
// for tests such as testing.TB.FailNow) unwinds its goroutine without a
// panic: the deferred function then sees neither a panic nor a return.
func runBody(run func(), b *B, g *group) {
	returned := false
	defer func() {
		v := recover()
		switch {
		case v != nil:
			if f, ok := v.(fatal); ok {
				g.abort(errors.New(f.msg))
			} else {
				g.abort(&PanicError{Value: v, Stack: debug.Stack()})
			}
		case !returned:
			g.abort(errors.New("the benchmark called runtime.Goexit (directly or through a helper such as testing's FailNow or SkipNow), which ended its goroutine"))
		}
	}()
	run()
	returned = true
	if !b.r.done {
		g.abort(errors.New("the benchmark function returned before b.Loop() reported false; its body must be `for b.Loop() { ... }` or `for range b.Invocations() { ... }`, run to its end (no break or return out of the loop)"))
	}
}

// lockedRand shares one random source between threads.
type lockedRand struct {
	mu sync.Mutex
	r  Rand
}

func (l *lockedRand) Float64() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Float64()
}

// PanicError is a panic in a benchmark body, with its stack.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Serve is the worker entry point of a binary whose forks run bodies of
// this package's Func (tests): it reads the assignment from the
// environment, runs it, writes the results to the result pipe and
// returns the process exit status.
func Serve(lookup Lookup) int { return ServeBodies(Bodies(lookup), nil) }

// Bodies is lookup as a BodyLookup, for ServeBodies and ServeHost (tests).
func Bodies(lookup Lookup) BodyLookup {
	return func(name string) (Body, bool) {
		fn, ok := lookup(name)
		if !ok {
			return Body{}, false
		}
		return Body{Bind: fn.bind()}, true
	}
}

// TestBinary runs the fork of a package benchmark (Run.GoTest): its test
// binary. Only the parent program links it (executor/gotest), so that
// a suite binary links no go test output parser.
type TestBinary func(a *protocol.Assignment, emit func(*protocol.Iteration) error) (*Output, error)

// ServeBodies serves a fork: a registered body that lookup finds, or, for
// a package benchmark, testBinary. Either may be nil in a binary that
// runs no such forks.
func ServeBodies(lookup BodyLookup, testBinary TestBinary) int {
	var a protocol.Assignment
	if err := json.Unmarshal([]byte(os.Getenv(protocol.EnvAssignment)), &a); err != nil {
		fmt.Fprintf(os.Stderr, "benchspec worker: bad assignment: %v\n", err)
		return 2
	}
	send, ok := resultPipe()
	if !ok {
		return 2
	}
	return serveOne(&a, lookup, testBinary, send, nil)
}

// ServeHost serves the runs of a batch that take no forks of their own
// (forks: 0): one after the other in this one process, each assignment a
// line on standard input, until its end. Every such run shares the
// process with those before it, which is what forks: 0 asks for.
func ServeHost(lookup BodyLookup) int {
	send, ok := resultPipe()
	if !ok {
		return 2
	}
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	state := captureHost()
	for {
		line, err := in.ReadSlice('\n')
		if err == io.EOF && len(line) == 0 {
			return 0
		}
		if err != nil && err != io.EOF {
			fmt.Fprintf(os.Stderr, "benchspec worker: reading the assignments: %v\n", err)
			return 2
		}
		var a protocol.Assignment
		if err := json.Unmarshal(bytes.TrimSpace(line), &a); err != nil {
			fmt.Fprintf(os.Stderr, "benchspec worker: bad assignment: %v\n", err)
			return 2
		}
		if status := serveOne(&a, lookup, nil, send, state.check); status == 2 {
			return status
		}
	}
}

// resultPipe returns how to send a message to the parent on the result
// pipe (protocol.ResultFD), which processes the benchmark starts do not
// inherit.
func resultPipe() (send func(m *protocol.Message) error, ok bool) {
	pipe := os.NewFile(protocol.ResultFD, "benchspec-results")
	if pipe == nil {
		fmt.Fprintln(os.Stderr, "benchspec worker: no result pipe")
		return nil, false
	}
	syscall.CloseOnExec(protocol.ResultFD)
	// One write per message, so that the parent reads whole lines.
	return func(m *protocol.Message) error {
		line, err := json.Marshal(m)
		if err == nil {
			_, err = pipe.Write(append(line, '\n'))
		}
		if err != nil {
			// The parent reads stderr's tail when the pipe fails it.
			fmt.Fprintf(os.Stderr, "benchspec worker: writing the result pipe: %v\n", err)
		}
		return err
	}, true
}

// shielded is set once the process has its shield (ShieldParent).
var shielded bool

// serveOne runs one assignment and sends what it measured; it returns
// the fork's exit status. In the forks: 0 host, intact says, once the
// body has returned and before the run's end is reported, whether the
// body left the host able to serve the next run; if not, the run fails
// with the cause and the status is 2, which ends the host.
func serveOne(a *protocol.Assignment, lookup BodyLookup, testBinary TestBinary, sendPipe func(m *protocol.Message) error, intact func() error) int {
	// Every message is held to the protocol's bounds before it leaves.
	send := func(m *protocol.Message) error {
		if err := vetMessage(a, m); err != nil {
			return err
		}
		return sendPipe(m)
	}
	run := func(clock Clock, emit func(*protocol.Iteration) error) (*Output, error) {
		if testBinary == nil {
			return nil, errors.New("this binary runs no package benchmarks (a suite binary's forks run its registered benchmarks; the benchspec program runs packages)")
		}
		return testBinary(a, emit)
	}
	if a.Run.GoTest == nil {
		var body Body
		ok := false
		if lookup != nil {
			body, ok = lookup(a.Run.Benchmark)
		}
		if !ok {
			send(&protocol.Message{Type: protocol.MsgError, Error: fmt.Sprintf("benchmark %q is not registered in this binary", a.Run.Benchmark)})
			return 1
		}
		run = func(clock Clock, emit func(*protocol.Iteration) error) (*Output, error) {
			return body.Run(a, clock, SystemRand(), emit)
		}
	}
	// A signal the benchmark sends its parent must not stop the batch
	// (once per process: a host serves many assignments).
	if ppid := os.Getppid(); ppid > 1 && !shielded {
		shielded = true
		pgrp, err := syscall.Getpgid(ppid)
		if err != nil {
			pgrp = ppid
		}
		ShieldParent(ppid, pgrp)
	}
	clock := SystemClock()
	cal := CalibrateFork(clock)
	if err := send(&protocol.Message{Type: protocol.MsgHello, PID: os.Getpid(), Timer: &cal, Duet: a.Duet}); err != nil {
		fmt.Fprintf(os.Stderr, "benchspec worker: result pipe: %v\n", err)
		return 2
	}
	out, err := run(clock, func(it *protocol.Iteration) error {
		return send(&protocol.Message{Type: protocol.MsgIteration, Iteration: it})
	})
	if intact != nil {
		if broken := intact(); broken != nil {
			send(&protocol.Message{Type: protocol.MsgError, Error: broken.Error()})
			return 2
		}
	}
	var skip *SkipError
	if errors.As(err, &skip) {
		if err := send(&protocol.Message{Type: protocol.MsgSkip, Skip: skip.Reason}); err != nil {
			return 2
		}
		return 0
	}
	if err != nil {
		// The stack goes to stderr, whose tail the parent keeps; the
		// reason names the panic value.
		var pe *PanicError
		if errors.As(err, &pe) {
			fmt.Fprintf(os.Stderr, "%v\n\n%s", pe, pe.Stack)
		}
		send(&protocol.Message{Type: protocol.MsgError, Error: err.Error()})
		return 1
	}
	if err := send(&protocol.Message{Type: protocol.MsgDone, Metrics: out.Metrics, Profiles: out.Profiles}); err != nil {
		if me := (*MetricError)(nil); errors.As(err, &me) {
			send(&protocol.Message{Type: protocol.MsgError, Error: err.Error()})
			return 1
		}
		return 2
	}
	return 0
}

// IsChild reports whether this process was started by the benchspec
// program as a fork, a guard, a shielded exec, to list a suite's
// benchmarks, or asked by a suite whether it is the program (EnvProbe).
func IsChild() bool {
	for _, k := range []string{protocol.EnvAssignment, protocol.EnvHost, protocol.EnvGuard, protocol.EnvExec, protocol.EnvList, protocol.EnvProbe} {
		if os.Getenv(k) != "" {
			return true
		}
	}
	return false
}

// ServeChild serves the role of a process a batch started (cli.ServeChild,
// which forwards here): a fork (ServeBodies with lookup), a guard (guard,
// executor.Guard, which this package cannot import) or a shielded exec
// (ShieldedExec), and exits with its status. It returns at once in a
// process that is none of them.
func ServeChild(lookup BodyLookup, testBinary TestBinary, guard func() int) {
	switch {
	case os.Getenv(protocol.EnvAssignment) != "":
		os.Exit(ServeBodies(lookup, testBinary))
	case os.Getenv(protocol.EnvHost) != "":
		os.Exit(ServeHost(lookup))
	case os.Getenv(protocol.EnvGuard) != "" && guard != nil:
		os.Exit(guard())
	case os.Getenv(protocol.EnvExec) != "":
		os.Exit(ShieldedExec(os.Args[1:]))
	case os.Getenv(protocol.EnvProbe) != "":
		// Only the benchspec program has a guard: a suite binary asked
		// is not the program, and must not hand over again (a loop).
		if guard != nil {
			if _, err := io.WriteString(os.Stdout, protocol.ProbeAnswer()); err != nil {
				os.Exit(1)
			}
			os.Exit(0)
		}
		fmt.Fprintf(os.Stderr, "%s is a suite binary, not the benchspec program\n", os.Args[0])
		os.Exit(2)
	}
}
