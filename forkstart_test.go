package benchspec_test

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every suite binary is also every fork, so what the module's packages
// do at initialisation every fork pays before it measures anything
// (generating and formatting the go test driver's source at init once
// cost each fork 2 ms). What only a command needs is computed when first
// used. The check counts allocations, which do not depend on the
// machine's load: a package that allocates more than initBudget bytes at
// init does real work there.
func TestModuleInitIsCheap(t *testing.T) {
	const initBudget = 16 << 10
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	line := regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`)
	seen := 0
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil || !strings.HasPrefix(m[1], module) || strings.HasSuffix(m[1], "_test") {
			continue // not the module's, or this test's own package
		}
		seen++
		if bytes, _ := strconv.Atoi(m[2]); bytes > initBudget {
			t.Errorf("package %s allocates %d bytes (%s allocs) at init, over %d: every fork pays it; compute it when first used", m[1], bytes, m[3], initBudget)
		}
	}
	if seen < 5 {
		t.Fatalf("inittrace named %d of the module's packages; output:\n%s", seen, out)
	}
}
