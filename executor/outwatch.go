package executor

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// outWatch reads a fork's output as it streams by, line by line, for what
// the parent wants to say about a fork that died or hung, however much
// output there is (a goroutine dump can be far longer than the kept
// tail), at a bounded cost per byte:
//
//   - the last "panic: …" or "fatal error: …" line, which the Go runtime
//     prints when the process dies, or "runtime/cgo: …", which a binary
//     that links cgo prints when it cannot start a thread (under a
//     memory limit, say) before it aborts;
//   - else the first fatal signal's name ("SIGABRT: abort", "SIGSEGV:
//     segmentation violation"), which is all the runtime says of a
//     signal raised outside Go code;
//   - after "SIGQUIT: quit" (the parent asks a hung fork for a goroutine
//     dump), the state of every goroutine, to tell a deadlock from a
//     busy loop.
type outWatch struct {
	mu     sync.Mutex
	line   []byte // the current line's first maxWatchLine bytes
	long   bool   // the current line is longer than maxWatchLine
	crash  string
	signal string   // the first fatal signal's line
	quit   bool     // the dump has begun
	dump   []string // "goroutine N [state]" of the dumped goroutines
}

const (
	maxWatchLine  = 300
	maxGoroutines = 1000
)

var crashPrefixes = [][]byte{[]byte("panic: "), []byte("fatal error: "), []byte("runtime/cgo: ")}

// signalLine matches the line the runtime prints first for a fatal
// signal, from its table of signal names: "SIGABRT: abort".
var signalLine = regexp.MustCompile(`^SIG[A-Z0-9]+: [a-z]`)

func (w *outWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := maxWatchLine - len(w.line); len(chunk) > room {
			w.long = true
			chunk = chunk[:room]
		}
		w.line = append(w.line, chunk...)
		if i < 0 {
			break
		}
		w.endLine()
		p = p[i+1:]
	}
	return n, nil
}

func (w *outWatch) endLine() {
	line := bytes.TrimRight(w.line, "\r")
	switch {
	case isCrashLine(line):
		w.crash = string(line)
		if w.long {
			w.crash += "…"
		}
	case bytes.Equal(line, []byte("SIGQUIT: quit")):
		w.quit = true
	case w.signal == "" && signalLine.Match(line):
		w.signal = string(line)
	case w.quit && len(w.dump) < maxGoroutines && bytes.HasPrefix(line, []byte("goroutine ")):
		if g, ok := goroutineHeader(string(line)); ok {
			w.dump = append(w.dump, g)
		}
	}
	w.line, w.long = w.line[:0], false
}

func isCrashLine(line []byte) bool {
	for _, pre := range crashPrefixes {
		if bytes.HasPrefix(line, pre) {
			return true
		}
	}
	return false
}

// goroutineHeader turns a dump's "goroutine 1 gp=0x… m=nil [chan
// receive, 2 minutes]:" into "goroutine 1 [chan receive, 2 minutes]".
func goroutineHeader(line string) (string, bool) {
	i, j := strings.IndexByte(line, '['), strings.LastIndexByte(line, ']')
	f := strings.Fields(line)
	if i < 0 || j < i || len(f) < 2 || f[1] == "0" {
		return "", false // goroutine 0 is the thread that took the signal
	}
	return "goroutine " + f[1] + " " + line[i:j+1], true
}

// Crash returns the last crash line seen, including one not yet ended
// by a newline, else the first fatal signal's line; "" when there was
// neither.
func (w *outWatch) Crash() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case isCrashLine(w.line):
		return string(w.line)
	case w.crash != "":
		return w.crash
	}
	return w.signal
}

// Deadlock describes the goroutines of a dump in which none was running,
// runnable or in a system call, nor sleeping: every one was blocked, and
// nothing would ever have woken them. The runtime reports that itself as
// "all goroutines are asleep", but not in a binary that links cgo (as
// suites do through net): the fork then hangs until its timeout. "" when
// the dump shows a goroutine at work, or there was no dump.
func (w *outWatch) Deadlock() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var user []string
	for _, g := range w.dump {
		state := g[strings.IndexByte(g, '[')+1:]
		for _, busy := range []string{"running", "runnable", "syscall", "sleep", "IO wait"} {
			if strings.HasPrefix(state, busy) {
				return ""
			}
		}
		if !runtimeGoroutine(state) {
			user = append(user, g)
		}
	}
	if len(user) == 0 {
		return ""
	}
	if len(user) > 3 {
		user = append(user[:3], "…")
	}
	return strings.Join(user, ", ")
}

// runtimeGoroutine reports whether a goroutine state is one of the Go
// runtime's own background goroutines waiting for work.
func runtimeGoroutine(state string) bool {
	for _, s := range []string{"force gc", "GC ", "finalizer wait", "cleanup wait", "GOMAXPROCS updater", "trace ", "debug call"} {
		if strings.HasPrefix(state, s) {
			return true
		}
	}
	return false
}
