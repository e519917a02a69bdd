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
// module. A variable of the spec's env that makes a program load or run
// other code — the fork itself, anything it starts (a shell, an
// interpreter, git), a go command a benchmark or the go test bridge
// runs — is refused at its key, by its class: the kinds of variable
// through which programs find code (a search path, options, a start-up
// file, a configuration, a helper program, a home, an interpreter's own
// variables), matched by the words of the name, so that a variant of a
// listed name (LUA_INIT_5_4, JDK_JAVA_OPTIONS, GIT_CONFIG_GLOBAL) is
// refused as its class is. A few names keep reasons of their own (the go
// command's, the shells'). Runtime settings of the code that does run
// (GOGC, GOMAXPROCS, GOMEMLIMIT, GODEBUG, GOEXPERIMENT, which is read only
// when compiling) and a benchmark's own variables stay allowed: they
// change how the code runs, not which code. A class may refuse a harmless
// variable that shares its words (MY_CONFIG): a benchmark takes such a
// value from its params instead.
var (
	// refusedNames are single variables with reasons of their own.
	refusedNames = sync.OnceValue(func() map[string]string {
		return map[string]string{
			"GCONV_PATH": "the C library would load character-conversion modules from it",
			// What a fork or its children execute, and how shells start.
			"PATH":           "a program a benchmark starts by name (exec.Command(\"sleep\")) would be looked up elsewhere: set it in the benchmark's own code if it needs another",
			"BASH_ENV":       "every bash script a fork starts would first run this file",
			"ENV":            "every sh script a fork starts would first run this file",
			"IFS":            "shell scripts a fork starts would split their words differently",
			"SHELLOPTS":      "bash scripts a fork starts would run with other options",
			"BASHOPTS":       "bash scripts a fork starts would run with other options",
			"PS1":            "an interactive shell would run the command substitutions in it",
			"PS2":            "an interactive shell would run the command substitutions in it",
			"PS4":            "with tracing on, bash would run the command substitutions in it",
			"PROMPT_COMMAND": "an interactive bash would run it before every prompt",
			"MAKEFILES":      "every make a fork starts would first read these makefiles",
			"GOTOOLCHAIN":    "the go command would download and run another toolchain (a build of the suite by another toolchain is a spec's builds: toolchain:)",
			"GOFLAGS":        "flags for every go command (-toolexec, -overlay, -modfile, -ldflags) run other code or build other sources",
			"GOROOT":         "the go command and the compiler would use another toolchain and standard library",
			"GOPATH":         "the go command would read modules from another cache",
			"GOMODCACHE":     "the go command would read module sources from another directory",
			"GOCACHE":        "the go command would link compiled objects from another build cache",
			"GOENV":          "a go.env file can set every variable of this list",
			"GOWORK":         "a workspace file replaces the module's dependencies with other directories",
			"GOPROXY":        "the go command would fetch modules from elsewhere",
			"GOSUMDB":        "the go command would not check downloaded modules against the checksum database",
			"GONOSUMDB":      "the go command would not check downloaded modules against the checksum database",
			"GONOSUMCHECK":   "the go command would not check downloaded modules against the checksum database",
			"GOPRIVATE":      "the go command would not check downloaded modules against the checksum database",
			"GOINSECURE":     "the go command would fetch modules without TLS or checksums",
			"GONOPROXY":      "the go command would fetch modules from elsewhere",
			"GOVCS":          "the go command would fetch modules with other version-control tools",
			"CC":             "the go command would run another C compiler",
			"CXX":            "the go command would run another C++ compiler",
			"FC":             "the go command would run another Fortran compiler",
			"AR":             "the go command would run another archiver",
			"PKG_CONFIG":     "the go command would run another pkg-config",
		}
	})
	// envClasses are the classes, in the order a name is judged: the
	// first pattern that matches names the class in the message.
	envClasses = []envClass{
		{"benchspec's own variable", "it tells a process its role (fork, guard); a spec sets only BENCHSPEC_RLIMIT_AS and BENCHSPEC_RLIMIT_DATA",
			[]string{"BENCHSPEC_*"}},
		{"the dynamic loader's", "the dynamic loader would load other code into every process (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT)",
			[]string{"LD_*", "DYLD_*", "*PRELOAD*"}},
		{"an interpreter's or tool's own variable", "it chooses the code, modules, configuration, hooks or helper programs of what a fork starts (cgo, bash, git, python, perl, ruby, node, java, lua, php, R, tcl, guile, .NET)",
			[]string{"CGO_*", "BASH_FUNC_*", "GIT_*", "PYTHON*", "PERL*", "RUBY*", "GEM_*", "BUNDLE_*", "NODE_*", "NPM_*",
				"JAVA*", "_JAVA*", "JDK_*", "LUA_*", "PHP*", "R_*", "TCL*", "GUILE_*", "DOTNET_*", "CORECLR_*", "COMPLUS_*"}},
		{"a search path", "a program would load code or libraries, or find the programs it runs, where it names",
			[]string{"*PATH*", "*LIBRAR*", "*LIB", "*LIBS", "*MODULES", "*PLUGIN", "*PLUGINS"}},
		{"options", "options of an interpreter, runtime or tool can make it load other code (-r, --require, -javaagent, -toolexec)",
			[]string{"*OPT", "*OPTS", "*OPTION", "*OPTIONS", "*FLAGS"}},
		{"a start-up file or code", "a shell or interpreter would run it before anything else",
			[]string{"KSH_ENV", "ZSH_ENV", "*INIT", "*STARTUP", "*RC", "*DOTDIR"}},
		{"a configuration", "a tool that reads it would run the programs, hooks or modules it names (git's core.pager, openssl's engines)",
			[]string{"*CONFIG*", "*CONF", "*CFG"}},
		{"a helper program", "a program a fork starts would run it",
			[]string{"*COMMAND", "*CMD", "*SHELL", "*PAGER", "*EDITOR", "*VISUAL", "*BROWSER", "*ASKPASS", "*WRAPPER",
				"*PROGRAM", "*EXECUTABLE", "*HOOK", "*HOOKS", "LESSOPEN", "LESSCLOSE"}},
		{"the home of a tool", "a program would use the code, modules or configuration found there",
			[]string{"*HOME", "*ROOT"}},
	}
	// envAllowed are the words a class's *SUFFIX matches that name no
	// code: SRC is not an rc file. (HOME, where a program keeps its
	// files, is allowed by name: a benchmark may move it.)
	envAllowed = []string{"SRC"}
)

// An envClass is a kind of variable a spec may not set: its name for
// messages and the docs, why, and its patterns. A pattern is matched on
// the name upper-cased: PREFIX* and NAME on the whole name, *SUFFIX and
// *PART* on each of its words (split at '_', numbers such as the 5_4 of
// LUA_INIT_5_4 left out), so that JDK_JAVA_OPTIONS is options as
// JAVA_OPTIONS is.
type envClass struct {
	name, reason string
	patterns     []string
}

// match returns the class's pattern that matches the upper-cased name
// with its words, or "".
func (c *envClass) match(name string, words []string) string {
	for _, p := range c.patterns {
		core := strings.Trim(p, "*")
		switch {
		case strings.HasPrefix(p, "*") && strings.HasSuffix(p, "*"):
			if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, core) }) {
				return p
			}
		case strings.HasPrefix(p, "*"):
			if slices.ContainsFunc(words, func(w string) bool { return strings.HasSuffix(w, core) && !slices.Contains(envAllowed, w) }) {
				return p
			}
		case strings.HasSuffix(p, "*"):
			if strings.HasPrefix(name, core) {
				return p
			}
		case name == p:
			return p
		}
	}
	return ""
}

// RefusedEnvClasses describes the classes of variables a spec's env may
// not set, each as its name and patterns, in the order they are judged;
// for the schema's description and the docs.
func RefusedEnvClasses() []string {
	out := make([]string, len(envClasses))
	for i, c := range envClasses {
		out[i] = c.name + " (" + strings.Join(c.patterns, ", ") + ")"
	}
	return out
}

// RefusedEnvNames lists the single names a spec's env may not set, with
// reasons of their own, sorted.
func RefusedEnvNames() []string {
	var out []string
	for name := range refusedNames() {
		out = append(out, name)
	}
	sort.Strings(out)
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
	upper := strings.ToUpper(name)
	if upper == "HOME" {
		return ""
	}
	words := envWords(upper)
	for _, c := range envClasses {
		if p := c.match(upper, words); p != "" {
			return "it is " + c.name + " (" + p + "): " + c.reason
		}
	}
	return ""
}

// envWords splits an upper-cased name at '_' into its words, without
// empty words and numbers (LUA_INIT_5_4 is LUA, INIT).
func envWords(name string) []string {
	return slices.DeleteFunc(strings.Split(name, "_"), func(w string) bool {
		return strings.Trim(w, "0123456789") == ""
	})
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
			d.errorKey(kp, "%s: a spec may not set %s: %s (docs/security.md lists what env may not set)", d.display(ptr), k, why)
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
