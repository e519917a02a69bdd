package spec

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SizeVariables are the env variables whose values are sizes (see
// ParseSize): the hard resource limits the executor sets on a fork
// (BENCHSPEC_RLIMIT_AS bounds its address space, BENCHSPEC_RLIMIT_DATA
// its writable private memory). They are checked here, where the spec is
// checked, so that every command that reads a spec refuses a bad value at
// the value itself.
var SizeVariables = []string{"BENCHSPEC_RLIMIT_AS", "BENCHSPEC_RLIMIT_DATA"}

// ParseSize parses a size in GOMEMLIMIT's syntax: a positive integer
// number of bytes with an optional B, KiB, MiB, GiB or TiB suffix.
func ParseSize(s string) (uint64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if err != nil || n == 0 || n > math.MaxUint64>>shift {
		return 0, fmt.Errorf("invalid size %q: want a positive number of bytes with an optional B, KiB, MiB, GiB or TiB suffix, such as 4GiB", s)
	}
	return n << shift, nil
}

// A spec may only run the suite's code and the packages of its own
// module. The variables below would let the spec's env change which code
// runs: in the fork itself, in anything it starts, and in a go command a
// benchmark or the go test bridge runs with it. Each is refused at its
// key, with its reason. Runtime settings of the code that does run
// (GOGC, GOMAXPROCS, GOMEMLIMIT, GODEBUG, GOEXPERIMENT, which is read
// only when compiling) stay allowed: they change how the code runs, not
// which code. RefusedEnvNames lists them all for messages and the schema.
var (
	// refusedPrefixes name families of variables.
	refusedPrefixes = []struct{ prefix, reason string }{
		{"LD_", "the dynamic loader would load other code into every process (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT)"},
		{"DYLD_", "the dynamic loader would load other code into every process"},
		{"CGO_", "cgo compiler and linker flags run other tools and link other code in a go command"},
		{"BASH_FUNC_", "bash would define these functions in every bash script a fork starts, in place of the commands they name"},
		{"BENCHSPEC_", "benchspec's own variables tell a process its role (fork, guard); a spec sets only BENCHSPEC_RLIMIT_AS and BENCHSPEC_RLIMIT_DATA"},
	}
	// refusedNames are single variables.
	refusedNames = sync.OnceValue(func() map[string]string {
		return map[string]string{
			"GCONV_PATH": "the C library would load character-conversion modules from it",
			// What a fork or its children execute, and how shells start.
			"PATH":         "a program a benchmark starts by name (exec.Command(\"sleep\")) would be looked up elsewhere: set it in the benchmark's own code if it needs another",
			"BASH_ENV":     "every bash script a fork starts would first run this file",
			"ENV":          "every sh script a fork starts would first run this file",
			"IFS":          "shell scripts a fork starts would split their words differently",
			"SHELLOPTS":    "bash scripts a fork starts would run with other options",
			"BASHOPTS":     "bash scripts a fork starts would run with other options",
			"PS4":          "with tracing on, bash would run the command substitutions in it",
			"PERL5OPT":     "every perl a fork starts would load other modules",
			"PERL5LIB":     "every perl a fork starts would load modules from elsewhere",
			"PYTHONPATH":   "every python a fork starts would import modules from elsewhere",
			"PYTHONHOME":   "every python a fork starts would use another standard library",
			"RUBYOPT":      "every ruby a fork starts would load other code",
			"RUBYLIB":      "every ruby a fork starts would load libraries from elsewhere",
			"NODE_OPTIONS": "every node a fork starts would load other code (--require)",
			"GOTOOLCHAIN":  "the go command would download and run another toolchain (a build of the suite by another toolchain is a spec's builds: toolchain:)",
			"GOFLAGS":      "flags for every go command (-toolexec, -overlay, -modfile, -ldflags) run other code or build other sources",
			"GOROOT":       "the go command and the compiler would use another toolchain and standard library",
			"GOPATH":       "the go command would read modules from another cache",
			"GOMODCACHE":   "the go command would read module sources from another directory",
			"GOCACHE":      "the go command would link compiled objects from another build cache",
			"GOENV":        "a go.env file can set every variable of this list",
			"GOWORK":       "a workspace file replaces the module's dependencies with other directories",
			"GOPROXY":      "the go command would fetch modules from elsewhere",
			"GOSUMDB":      "the go command would not check downloaded modules against the checksum database",
			"GONOSUMDB":    "the go command would not check downloaded modules against the checksum database",
			"GONOSUMCHECK": "the go command would not check downloaded modules against the checksum database",
			"GOPRIVATE":    "the go command would not check downloaded modules against the checksum database",
			"GOINSECURE":   "the go command would fetch modules without TLS or checksums",
			"GONOPROXY":    "the go command would fetch modules from elsewhere",
			"GOVCS":        "the go command would fetch modules with other version-control tools",
			"CC":           "the go command would run another C compiler",
			"CXX":          "the go command would run another C++ compiler",
			"FC":           "the go command would run another Fortran compiler",
			"AR":           "the go command would run another archiver",
			"PKG_CONFIG":   "the go command would run another pkg-config",
		}
	})
)

// RefusedEnvNames lists what a spec's env may not set: the single names
// and, as PREFIX*, the families, sorted; for messages.
func RefusedEnvNames() []string {
	var out []string
	for name := range refusedNames() {
		out = append(out, name)
	}
	sort.Strings(out)
	for _, p := range refusedPrefixes {
		out = append(out, p.prefix+"*")
	}
	return out
}

// RefusedEnv returns why a spec may not set the variable name, or "".
func RefusedEnv(name string) string {
	if slices.Contains(SizeVariables, name) {
		return ""
	}
	if r, ok := refusedNames()[name]; ok {
		return r
	}
	for _, p := range refusedPrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.reason
		}
	}
	return ""
}

// checkEnv checks what the schema cannot say about an env mapping (of the
// defaults or of an entry): that every variable name can be set in a
// process's environment (not empty, no '=' or NUL) and is not one a spec
// may not set (RefusedEnv), at the name, and that the size variables
// parse, at the value.
func (d *document) checkEnv(ptr string, v any) {
	env, ok := v.(map[string]any)
	if !ok || d.errPtr[ptr] {
		return
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		kp := ptr + "/" + escapeToken(k)
		if k == "" || strings.ContainsAny(k, "=\x00") {
			d.errorKey(kp, "%s: invalid variable name %q: it must not be empty or contain '=' or NUL", d.display(ptr), k)
			continue
		}
		if why := RefusedEnv(k); why != "" {
			d.errorKey(kp, "%s: a spec may not set %s: %s (a spec's env may not set any of %s)", d.display(ptr), k, why, strings.Join(RefusedEnvNames(), ", "))
			continue
		}
		s, ok := env[k].(string)
		if !ok || d.errPtr[kp] {
			continue
		}
		// A NUL cannot be passed in an environment: every fork would fail
		// to start.
		if i := strings.IndexByte(s, 0); i >= 0 {
			d.errorPtr(kp, "%s: the value contains a NUL character (at byte %d), which no process environment can hold", d.display(kp), i)
			continue
		}
		if k == "GOMAXPROCS" {
			// The Go runtime ignores a GOMAXPROCS that is not a positive
			// integer: the report would record a setting no fork had.
			if n, err := strconv.Atoi(s); err != nil || n < 1 || strings.TrimSpace(s) != s || s[0] == '+' || s[0] == '0' {
				d.errorPtr(kp, "%s: %q is not a positive integer such as \"4\" (the Go runtime ignores any other value)", d.display(kp), s)
			}
			continue
		}
		for _, sv := range SizeVariables {
			if k != sv {
				continue
			}
			if _, err := ParseSize(s); err != nil {
				d.errorPtr(kp, "%s: %v", d.display(kp), err)
			}
		}
	}
}
