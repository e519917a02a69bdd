// Command faultsuite is a benchmark suite whose benchmarks misbehave on
// purpose, one way each, to show that a misbehaving benchmark costs only
// its own run: it panics, exits, hangs, deadlocks, crashes, runs out of
// memory or threads, floods its output, tampers with the result pipe, or leaves a
// process behind. Its tests run it end to end; it can also be run by hand:
//
//	go run ./examples/faultsuite run examples/faultsuite/faults.yaml
//
// Benchmarks that start processes append "ROLE PID" lines to the file
// named by $FAULT_PIDFILE (set in the spec's env), so that a test can
// check those processes are gone afterwards.
package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchspec/benchspec"
)

// envChild makes the binary a child process that sleeps (started by the
// orphan and helper benchmarks).
const envChild = "FAULTSUITE_CHILD"

func init() {
	if os.Getenv(envChild) != "" {
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	healthy()
	crashes()
	tampering()
	processes()
	hostile()
}

// healthy registers benchmarks that behave.
func healthy() {
	benchspec.Register("fault.ok", func(b *benchspec.B) {
		for b.Loop() {
		}
	})
	benchspec.Register("fault.work", func(b *benchspec.B) {
		x := 1.0
		for b.Loop() {
			x = math.Sqrt(x + 2)
		}
		benchspec.Sink(x)
	})
}

// crashes registers benchmarks that end their fork early or never.
func crashes() {
	benchspec.Register("fault.panic_loop", func(b *benchspec.B) {
		n := 0
		for b.Loop() {
			if n++; n == 100 {
				panic("fault: panic in the loop")
			}
		}
	})
	benchspec.Register("fault.panic_setup", func(b *benchspec.B) {
		panic("fault: panic in setup")
	})
	benchspec.Register("fault.exit", func(b *benchspec.B) {
		for b.Loop() {
			os.Exit(3)
		}
	})
	// In ss mode with batch_size 1 and no warmup, invocation n is
	// measurement iteration n: it hangs in iteration 3.
	benchspec.Register("fault.spin", func(b *benchspec.B) {
		n := 0
		for b.Loop() {
			if n++; n == 3 {
				for {
				}
			}
		}
	})
	benchspec.Register("fault.deadlock", func(b *benchspec.B) {
		var mu sync.Mutex
		mu.Lock()
		for b.Loop() {
			mu.Lock()
		}
	})
	// A nil dereference in a goroutine of its own cannot be recovered by
	// the worker: the process crashes.
	benchspec.Register("fault.nil", func(b *benchspec.B) {
		for b.Loop() {
			done := make(chan struct{})
			go func() {
				defer close(done)
				var p *[8]int
				p[3]++
			}()
			<-done
		}
	})
	// Keeps every 64 MiB it allocates, all in its first op; only a
	// resource limit stops it, however few ops a busy machine fits into
	// an iteration.
	benchspec.Register("fault.memory", func(b *benchspec.B) {
		var keep [][]byte
		for b.Loop() {
			for {
				keep = append(keep, make([]byte, 64<<20))
			}
		}
		benchspec.Sink(keep)
	})
	// Starts OS threads that never end, until the limit on its address
	// space refuses the next thread's stack: in a binary that links cgo
	// the C library starts threads, fails, and aborts the process.
	benchspec.Register("fault.threads", func(b *benchspec.B) {
		for b.Loop() {
			for {
				started := make(chan struct{})
				go func() {
					runtime.LockOSThread()
					close(started)
					select {}
				}()
				<-started
			}
		}
	})
}

// tampering registers benchmarks that abuse their output and the result
// pipe (file descriptor 3).
func tampering() {
	// 100 MB to stdout and to stderr before the loop: not a fault in
	// itself, but it must not cost the parent memory or time.
	benchspec.Register("fault.flood", func(b *benchspec.B) {
		line := bytes.Repeat([]byte("flood "), 1<<20/6)
		for _, f := range []*os.File{os.Stdout, os.Stderr} {
			for written := 0; written < 100<<20; written += len(line) {
				f.Write(line)
			}
		}
		for b.Loop() {
		}
	})
	benchspec.Register("fault.closepipe", func(b *benchspec.B) {
		syscall.Close(3)
		for b.Loop() {
		}
	})
	benchspec.Register("fault.garbage", func(b *benchspec.B) {
		syscall.Write(3, []byte("this is not a message\n"))
		for b.Loop() {
		}
	})
}

// processes registers benchmarks that start a child process: one leaves
// it behind, one stops it before it returns.
func processes() {
	benchspec.Register("fault.orphan", func(b *benchspec.B) {
		child := startChild(b)
		record(b, "orphan", child.Process.Pid)
		for b.Loop() {
		}
	})
	benchspec.Register("fault.helper", func(b *benchspec.B) {
		child := startChild(b)
		record(b, "fork", os.Getpid())
		record(b, "helper", child.Process.Pid)
		for b.Loop() {
		}
		child.Process.Kill()
		child.Wait()
	})
}

// startChild starts this binary as a sleeping child process.
// Its environment is the fork's less every BENCHSPEC_ variable.
func startChild(b *benchspec.B) *exec.Cmd { return startChildAttr(b, nil, "") }

// startChildAttr is startChild with the child's process attributes,
// keeping the BENCHSPEC_ variable keep, if any, as a child that does not
// clean its environment would.
func startChildAttr(b *benchspec.B, attr *syscall.SysProcAttr, keep string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BENCHSPEC_") || keep != "" && strings.HasPrefix(kv, keep+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, envChild+"=1")
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return cmd
}

// record appends "role pid" to $FAULT_PIDFILE.
func record(b *benchspec.B, role string, pid int) {
	path := os.Getenv("FAULT_PIDFILE")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(f, "%s %d\n", role, pid)
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

func main() { benchspec.Main() }

// hostile registers benchmarks that attack the batch rather than fail
// by accident: they forge the result pipe, leave processes that change
// session or group, delete the files of their working directory, signal
// their parent, or end their goroutine.
func hostile() {
	// Writes a forged stream chosen by its "stream" param on the result
	// pipe, in place of the worker's, then exits 0 before the worker can
	// write anything more.
	benchspec.Register("fault.forge", func(b *benchspec.B) {
		lines, ok := forged[b.Param("stream")]
		if !ok {
			b.Fatalf("no forged stream %q", b.Param("stream"))
		}
		syscall.Write(3, []byte(lines))
		os.Exit(0)
	}, benchspec.Params{"stream": {"perfect"}})
	benchspec.Register("fault.goexit", func(b *benchspec.B) {
		for b.Loop() {
			runtime.Goexit()
		}
	})
	// Start a child in a session, or a process group, of its own: out
	// of reach of a kill of the fork's group. The first keeps the
	// batch's mark in its environment (as `setsid cmd &` in a script
	// would), the second clears it.
	benchspec.Register("fault.setsid", func(b *benchspec.B) {
		child := startChildAttr(b, &syscall.SysProcAttr{Setsid: true}, "BENCHSPEC_BATCH")
		record(b, "setsid", child.Process.Pid)
		for b.Loop() {
		}
	})
	benchspec.Register("fault.setpgid", func(b *benchspec.B) {
		child := startChildAttr(b, &syscall.SysProcAttr{Setpgid: true}, "")
		record(b, "setpgid", child.Process.Pid)
		for b.Loop() {
		}
	})
	// Closes one of its standard files or changes its working
	// directory: harmless in a fork of its own, it would break the next
	// run of the forks: 0 host.
	benchspec.Register("fault.closestd", func(b *benchspec.B) {
		switch b.Param("what") {
		case "stdin":
			os.Stdin.Close()
		case "stdout":
			syscall.Close(1)
		case "stderr":
			syscall.Close(2)
		case "dup":
			if f, err := os.Open(os.DevNull); err == nil {
				syscall.Dup2(int(f.Fd()), 0)
			}
		case "chdir":
			os.Chdir("/")
		}
		for b.Loop() {
		}
	}, benchspec.Params{"what": {"stdin", "stdout", "stderr", "dup", "chdir"}})
	// Opens the memory of its parent (the benchspec program) for
	// writing, as a debugger would, and fails if it can.
	benchspec.Register("fault.parentmem", func(b *benchspec.B) {
		path := fmt.Sprintf("/proc/%d/mem", os.Getppid())
		if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
			f.Close()
			b.Fatalf("opened %s read-write", path)
		}
		for b.Loop() {
		}
	})
	// Deletes every file of its working directory.
	benchspec.Register("fault.unlink", func(b *benchspec.B) {
		entries, _ := os.ReadDir(".")
		for _, e := range entries {
			os.RemoveAll(e.Name())
		}
		for b.Loop() {
		}
	})
	// Sends SIGTERM to its parent, then SIGINT, as a `kill $PPID` would.
	// Sends SIGTERM to a thread of its parent other than the main one:
	// kill(TID) signals the whole process, as kill(PID) does.
	benchspec.Register("fault.tidkill", func(b *benchspec.B) {
		ppid := os.Getppid()
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", ppid))
		for _, task := range tasks {
			if tid, err := strconv.Atoi(task.Name()); err == nil && tid != ppid {
				err1 := syscall.Kill(tid, syscall.SIGTERM)
				err2 := syscall.Tgkill(ppid, tid, syscall.SIGTERM)
				fmt.Printf("kill %d (a thread of %d): %v, tgkill: %v\n", tid, ppid, err1, err2)
			}
		}
		for b.Loop() {
		}
	})
	// Attaches to its parent with ptrace: PTRACE_SEIZE, which does not
	// stop it, then, when that is refused, PTRACE_ATTACH, which would
	// stop it (for good, once this fork has exited).
	benchspec.Register("fault.ptrace", func(b *benchspec.B) {
		ppid := os.Getppid()
		if _, _, e := syscall.Syscall6(syscall.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(ppid), 0, 0, 0, 0); e == 0 {
			b.Fatalf("ptrace(PTRACE_SEIZE) of the parent %d succeeded", ppid)
		}
		if err := syscall.PtraceAttach(ppid); err == nil {
			b.Fatalf("ptrace(PTRACE_ATTACH) of the parent %d succeeded", ppid)
		}
		for b.Loop() {
		}
	})
	// Fails with 50 MB of text.
	benchspec.Register("fault.fatal_huge", func(b *benchspec.B) {
		b.Fatalf("%s", strings.Repeat("fatal ", 50<<20/6))
	})
	// A go test body that reports a metric as NaN, which testing allows.
	benchspec.RegisterTesting("fault.nan_metric", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
		}
		b.ReportMetric(math.NaN(), "things/op")
	})
	// A go test body that ignores b.N: its time stays, its ns/op falls
	// as testing raises b.N.
	benchspec.RegisterTesting("fault.ignores_n", func(b *testing.B) {
		time.Sleep(time.Millisecond)
	})
	benchspec.Register("fault.sigparent", func(b *benchspec.B) {
		ppid := os.Getppid()
		err1 := syscall.Kill(ppid, syscall.SIGTERM)
		err2 := syscall.Kill(ppid, syscall.SIGINT)
		fmt.Printf("kill %d: SIGTERM: %v, SIGINT: %v\n", ppid, err1, err2)
		for b.Loop() {
		}
	})
}

// forged are the streams fault.forge writes (the worker has sent its
// hello already). "perfect" is a well-formed stream of faults.yaml's
// counts (1 warmup, 2 measurement iterations): what a benchmark can
// still forge on purpose.
var forged = map[string]string{
	"done": `{"type":"done"}` + "\n",
	// Well formed, but numbers that cannot be: operations that do not
	// follow from the invocations, a call a hundred times faster than an
	// empty loop, 3 × 10 s of work in a fork that lives milliseconds;
	// and a done that lists a profile outside the profile directory.
	"ops":   iterLineInv("warmup", 1, 1e12, 1e5, 1) + `{"type":"done"}` + "\n",
	"floor": iterLine("warmup", 1, 1e12, 1000) + `{"type":"done"}` + "\n",
	"wall":  iterLine("warmup", 1, 1e4, 1e10) + iterLine("measurement", 1, 1e4, 1e10) + iterLine("measurement", 2, 1e4, 1e10) + `{"type":"done"}` + "\n",
	"profile": iterLine("warmup", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + iterLine("measurement", 2, 1e5, 1e5) +
		`{"type":"done","profiles":{"cpu":"/etc/passwd"}}` + "\n",
	"extra": iterLine("warmup", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + iterLine("measurement", 2, 1e5, 1e5) +
		iterLine("measurement", 3, 1e5, 1e5) + `{"type":"done"}` + "\n",
	"repeat": iterLine("warmup", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + `{"type":"done"}` + "\n",
	"zero":   iterLine("warmup", 1, 1e12, 0) + `{"type":"done"}` + "\n",
	"short":  iterLine("warmup", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + `{"type":"done"}` + "\n",
	"twice": iterLine("warmup", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + iterLine("measurement", 2, 1e5, 1e5) +
		`{"type":"done"}` + "\n" + `{"type":"done"}` + "\n",
	// 1 ns per call, 0.3 ms in all: a forgery no check can tell from a
	// measurement (the executor's package documentation says so).
	"perfect": iterLine("warmup", 1, 1e5, 1e5) + iterLine("measurement", 1, 1e5, 1e5) + iterLine("measurement", 2, 1e5, 1e5) + `{"type":"done"}` + "\n",
}

// iterLine is an iteration line of ops operations, one per invocation,
// in ns nanoseconds.
func iterLine(phase string, index int, ops, ns float64) string {
	return iterLineInv(phase, index, ops, ns, uint64(ops))
}

func iterLineInv(phase string, index int, ops, ns float64, inv uint64) string {
	return fmt.Sprintf(`{"type":"iteration","iteration":{"phase":%q,"index":%d,"ops":%g,"time_ns":%g,"invocations":%d}}`+"\n", phase, index, ops, ns, inv)
}
