package worker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/benchspec/benchspec/executor"
)

// Lookup finds a registered benchmark body by name.
type Lookup func(name string) (Func, bool)

// RunFork runs one fork's assignment in this process: it calls fn once
// with a B whose Loop drives every warmup and measurement iteration, and
// sends each finished iteration to emit. It returns the metrics the body
// reported, or an error when the body panicked, returned before Loop
// reported false, or emit failed.
func RunFork(a *executor.Assignment, fn Func, clock Clock, rnd Rand, emit func(*executor.Iteration) error) (metrics map[string]float64, err error) {
	b := &B{params: make(map[string]string, len(a.Run.Params))}
	for _, p := range a.Run.Params {
		b.params[p.Name] = p.Value
	}
	b.r = newRunner(a, clock, rnd, emit)
	defer func() {
		if v := recover(); v != nil {
			metrics, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	fn(b)
	switch {
	case b.r.err != nil:
		return nil, b.r.err
	case !b.r.done:
		return nil, errors.New("the benchmark function returned before b.Loop() reported false; its body must be `for b.Loop() { ... }`")
	}
	return b.metrics, nil
}

// PanicError is a panic in a benchmark body, with its stack.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Serve is the worker entry point: it reads the assignment from the
// environment, runs it, writes the results to the result pipe and returns
// the process exit status. Main calls it when the suite binary runs as a
// fork.
func Serve(lookup Lookup) int {
	var a executor.Assignment
	if err := json.Unmarshal([]byte(os.Getenv(executor.EnvAssignment)), &a); err != nil {
		fmt.Fprintf(os.Stderr, "benchspec worker: bad assignment: %v\n", err)
		return 2
	}
	pipe := os.NewFile(executor.ResultFD, "benchspec-results")
	if pipe == nil {
		fmt.Fprintln(os.Stderr, "benchspec worker: no result pipe")
		return 2
	}
	w := bufio.NewWriter(pipe)
	enc := json.NewEncoder(w)
	send := func(m *executor.Message) error {
		if err := enc.Encode(m); err != nil {
			return err
		}
		return w.Flush()
	}
	fn, ok := lookup(a.Run.Benchmark)
	if !ok {
		send(&executor.Message{Type: executor.MsgError, Error: fmt.Sprintf("benchmark %q is not registered in this binary", a.Run.Benchmark)})
		return 1
	}
	clock := SystemClock()
	cal := Calibrate(clock)
	if err := send(&executor.Message{Type: executor.MsgHello, PID: os.Getpid(), Timer: &cal}); err != nil {
		fmt.Fprintf(os.Stderr, "benchspec worker: result pipe: %v\n", err)
		return 2
	}
	metrics, err := RunFork(&a, fn, clock, SystemRand(), func(it *executor.Iteration) error {
		return send(&executor.Message{Type: executor.MsgIteration, Iteration: it})
	})
	if err != nil {
		// The stack goes to stderr, whose tail the parent keeps; the
		// reason names the panic value.
		var pe *PanicError
		if errors.As(err, &pe) {
			fmt.Fprintf(os.Stderr, "%v\n\n%s", pe, pe.Stack)
		}
		send(&executor.Message{Type: executor.MsgError, Error: err.Error()})
		return 1
	}
	if err := send(&executor.Message{Type: executor.MsgDone, Metrics: metrics}); err != nil {
		return 2
	}
	return 0
}
