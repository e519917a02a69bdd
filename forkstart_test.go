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
// init does real work there. And a package a suite binary links runs no
// initialisation at all, unless it is in initAllowed: even a small map
// or sync.OnceValue at package level costs each fork a page fault on the
// package's code and the allocations' pages (internal/lazy builds such
// values on first use, without initialisation code).
func TestModuleInitIsCheap(t *testing.T) {
	const initBudget = 16 << 10
	// initAllowed are the suite binary's packages of the module that may
	// still run initialisation code, with what they initialise.
	initAllowed := map[string]string{
		"executor": "rlimits, a map",
	}
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
	deps, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	suite := map[string]bool{}
	for _, p := range strings.Fields(string(deps)) {
		suite[p] = true
	}
	line := regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`)
	seen, own := 0, false
	initRuns := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		seen++
		if m[1] == module+"_test" {
			own = true // this test's package: it has package-level variables
		}
		if !strings.HasPrefix(m[1], module) || strings.HasSuffix(m[1], "_test") {
			continue // not the module's, or this test's own package
		}
		if bytes, _ := strconv.Atoi(m[2]); bytes > initBudget {
			t.Errorf("package %s allocates %d bytes (%s allocs) at init, over %d: every fork pays it; compute it when first used", m[1], bytes, m[3], initBudget)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(m[1], module), "/")
		initRuns[rel] = true
		if _, ok := initAllowed[rel]; suite[m[1]] && !ok {
			t.Errorf("package %s runs initialisation code (%s bytes, %s allocs) and every suite binary links it: every fork pays it; build its package-level values on first use (internal/lazy), or make them constants", m[1], m[2], m[3])
		}
	}
	if seen < 20 || !own {
		t.Fatalf("inittrace named %d packages, this test's own among them: %v; output:\n%s", seen, own, out)
	}
	for p, what := range initAllowed {
		if !initRuns[p] {
			t.Errorf("package %s no longer runs initialisation code (it was %s): take it off initAllowed", p, what)
		}
	}
}
