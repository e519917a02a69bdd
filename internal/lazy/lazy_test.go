package lazy

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

var calls atomic.Int32

var table = Value[map[string]int]{New: func() map[string]int {
	calls.Add(1)
	return map[string]int{"a": 1, "b": 2}
}}

// TestGetBuildsOnce checks that New runs on the first Get only, however
// many goroutines ask at once, and that every caller sees its value.
func TestGetBuildsOnce(t *testing.T) {
	if n := calls.Load(); n != 0 {
		t.Fatalf("New ran %d times before the first Get", n)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := table.Get()["b"]; got != 2 {
				t.Errorf(`Get()["b"] = %d, want 2`, got)
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("New ran %d times, want 1", n)
	}
}

// TestNoInitCode checks the reason the package exists: a package whose
// only package-level variable is a Value literal has no initialisation
// function (the compiler lays the Value out as data), where the same
// variable built by sync.OnceValue has one.
func TestNoInitCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	dir := t.TempDir()
	src := map[string]string{
		"go.mod": "module x\n\ngo 1.26\n",
		"lazyvalue/main.go": `package main

import "x/lazy"

var re = lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"a": true} }}

func main() { println(re.Get()["a"]) }
`,
		"oncevalue/main.go": `package main

import "sync"

var re = sync.OnceValue(func() map[string]bool { return map[string]bool{"a": true} })

func main() { println(re()["a"]) }
`,
	}
	lazySrc, err := os.ReadFile("lazy.go")
	if err != nil {
		t.Fatal(err)
	}
	src["lazy/lazy.go"] = string(lazySrc)
	for name, s := range src {
		if err := os.MkdirAll(dir+"/"+name[:strings.LastIndexByte(name, '/')+1], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/"+name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hasInit := func(prog string) bool {
		bin := dir + "/" + prog + ".bin"
		cmd := exec.Command("go", "build", "-o", bin, "./"+prog)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build ./%s: %v\n%s", prog, err, out)
		}
		out, err := exec.Command("go", "tool", "nm", bin).Output()
		if err != nil {
			t.Fatalf("go tool nm: %v", err)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasSuffix(line, " T main.init") {
				return true
			}
		}
		return false
	}
	if !hasInit("oncevalue") {
		t.Error("the sync.OnceValue program has no main.init: the test no longer tells anything")
	}
	if hasInit("lazyvalue") {
		t.Error("a package-level lazy.Value literal gives its package an init function")
	}
}
