package executor

import (
	"sort"
	"strings"
	"testing"

	"github.com/benchspec/benchspec/spec"
	"github.com/google/go-cmp/cmp"
)

// write feeds s to w in chunks of n bytes, as a pipe might deliver it.
func write(w *outWatch, s string, n int) {
	for len(s) > 0 {
		k := min(n, len(s))
		w.Write([]byte(s[:k]))
		s = s[k:]
	}
}

func TestOutWatchCrash(t *testing.T) {
	tests := []struct {
		name, out, want string
	}{
		{"none", "hello\nworld\n", ""},
		{"panic", "x\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n", "panic: boom"},
		{"last wins", "panic: printed by the user\nfatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n", "fatal error: all goroutines are asleep - deadlock!"},
		{"unterminated", "fatal error: out of memory", "fatal error: out of memory"},
		{"not at line start", "a panic: no\n", ""},
		{"long", "panic: " + strings.Repeat("x", 1000) + "\n", "panic: " + strings.Repeat("x", maxWatchLine-len("panic: ")) + "…"},
		{"crlf", "panic: dos\r\n", "panic: dos"},
		// A cgo binary that cannot start a thread (the runtime's
		// runtime/cgo/gcc_fatalf.c, then its signal handler).
		{"cgo thread", "runtime/cgo: pthread_create failed: Cannot allocate memory\nSIGABRT: abort\nPC=0x4a1b2c m=3 sigcode=18446744073709551610\nsignal arrived during cgo execution\n\ngoroutine 7 gp=0x1 m=3 mp=0x2 [syscall]:\n",
			"runtime/cgo: pthread_create failed: Cannot allocate memory"},
		{"signal alone", "SIGSEGV: segmentation violation\nPC=0x0 m=0 sigcode=1 addr=0x0\n\ngoroutine 1 [running]:\n", "SIGSEGV: segmentation violation"},
		{"crash line over signal", "SIGABRT: abort\nPC=0x1 m=0 sigcode=0\nfatal error: unexpected signal\n", "fatal error: unexpected signal"},
		{"the parent's quit is no crash", "SIGQUIT: quit\nPC=0x1 m=0 sigcode=0\n", ""},
		{"signal in a sentence", "SIGABRT received: ignoring\n", ""},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 3, 4096} {
			w := &outWatch{}
			write(w, tt.out, chunk)
			if got := w.Crash(); got != tt.want {
				t.Errorf("%s (chunks of %d): Crash() = %q, want %q", tt.name, chunk, got, tt.want)
			}
		}
	}
}

func TestOutWatchDeadlock(t *testing.T) {
	const runtimeGs = "goroutine 2 gp=0x1 m=nil [force gc (idle)]:\nruntime.gopark()\n\n" +
		"goroutine 3 gp=0x2 m=nil [GC sweep wait]:\n\ngoroutine 18 gp=0x3 m=nil [GOMAXPROCS updater (idle)]:\n\n" +
		"goroutine 19 gp=0x4 m=nil [finalizer wait]:\n\ngoroutine 20 gp=0x5 m=nil [cleanup wait]:\n\n" +
		"goroutine 21 gp=0x6 m=nil [GC worker (idle)]:\n\n"
	const quit = "SIGQUIT: quit\nPC=0x496d41 m=0 sigcode=0\n\ngoroutine 0 gp=0x179dda0 m=0 mp=0x179f380 [idle]:\nruntime.futex()\n\n"
	tests := []struct {
		name, out, want string
	}{
		{"no dump", "goroutine 1 [sync.Mutex.Lock]:\n", ""},
		{"blocked", quit + "goroutine 1 gp=0x7 m=nil [sync.Mutex.Lock]:\nsync.(*Mutex).Lock()\n\n" + runtimeGs,
			"goroutine 1 [sync.Mutex.Lock]"},
		{"several", quit + "goroutine 1 gp=0x7 m=nil [chan receive, 3 minutes]:\n\ngoroutine 7 gp=0x8 m=nil [select (no cases)]:\n\n" + runtimeGs,
			"goroutine 1 [chan receive, 3 minutes], goroutine 7 [select (no cases)]"},
		{"running", quit + "goroutine 1 gp=0x7 m=3 mp=0x9 [running]:\nmain.spin()\n\n" + runtimeGs, ""},
		{"sleeping", quit + "goroutine 1 gp=0x7 m=nil [sleep]:\ntime.Sleep()\n\n" + runtimeGs, ""},
		{"a syscall", quit + "goroutine 1 gp=0x7 m=nil [sync.Mutex.Lock]:\n\ngoroutine 5 gp=0x9 m=2 mp=0x1 [syscall]:\n\n" + runtimeGs, ""},
		{"only the runtime", quit + runtimeGs, ""},
	}
	for _, tt := range tests {
		w := &outWatch{}
		write(w, tt.out, 7)
		if got := w.Deadlock(); got != tt.want {
			t.Errorf("%s: Deadlock() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestForkLimits(t *testing.T) {
	got, err := forkLimits(map[string]string{"BENCHSPEC_RLIMIT_DATA": "1GiB", "BENCHSPEC_RLIMIT_AS": "4GiB", "GOGC": "off"})
	if err != nil || len(got) != 2 || got[0].env != "BENCHSPEC_RLIMIT_AS" || got[0].bytes != 4<<30 || got[1].bytes != 1<<30 {
		t.Errorf("forkLimits = %+v, %v", got, err)
	}
	_, err = forkLimits(map[string]string{"BENCHSPEC_RLIMIT_AS": "lots"})
	if err == nil || !strings.HasPrefix(err.Error(), `env.BENCHSPEC_RLIMIT_AS: invalid size "lots"`) {
		t.Errorf("forkLimits = %v", err)
	}
	// The spec checks the values of exactly the variables read here.
	var names []string
	for name := range rlimits {
		names = append(names, name)
	}
	sort.Strings(names)
	if diff := cmp.Diff(spec.SizeVariables, names); diff != "" {
		t.Errorf("spec.SizeVariables are not the limits' variables (-spec +executor):\n%s", diff)
	}
}
