package spec

import (
	"strings"
	"testing"
)

// TestEnvRefusedByClass: a variable that makes a program load or run
// other code is refused by its class, variants the list never named
// included, at its key, with a message that names the class; the Go
// runtime's settings and a benchmark's own variables pass.
func TestEnvRefusedByClass(t *testing.T) {
	refused := []struct{ name, class string }{
		// The six of issue 36, which passed when the rule was a list.
		{"PERLLIB", "own"}, {"NODE_PATH", "own"}, {"JAVA_TOOL_OPTIONS", "own"}, {"LUA_INIT", "own"},
		{"ZDOTDIR", "start-up"}, {"GIT_CONFIG_GLOBAL", "own"},
		// Hidden variants, each class by more than one name.
		{"PYTHONSTARTUP", "own"}, {"PYTHONBREAKPOINT", "own"}, {"RUBYOPT", "own"}, {"PERL5OPT", "own"}, {"PERL5DB", "own"},
		{"BASH_ENV", "bash script"}, {"ENV", "sh script"}, {"KSH_ENV", "start-up"}, {"LD_AUDIT", "loader"},
		{"LD_PRELOAD", "loader"}, {"DYLD_INSERT_LIBRARIES", "loader"}, {"GCONV_PATH", "character-conversion"},
		{"NODE_OPTIONS", "own"}, {"CLASSPATH", "search path"}, {"_JAVA_OPTIONS", "own"}, {"JDK_JAVA_OPTIONS", "own"},
		{"GIT_EXEC_PATH", "own"}, {"GIT_SSH_COMMAND", "own"}, {"LUA_INIT_5_4", "own"}, {"LUA_CPATH_5_3", "own"},
		{"TCLLIBPATH", "own"}, {"EMACSLOADPATH", "search path"}, {"GUILE_LOAD_PATH", "own"}, {"QT_PLUGIN_PATH", "search path"},
		{"GTK_MODULES", "search path"}, {"GST_PLUGIN_SYSTEM_PATH", "search path"}, {"R_LIBS_USER", "own"},
		{"MAKEFLAGS", "options"}, {"RUSTFLAGS", "options"}, {"MAVEN_OPTS", "options"}, {"PERLDB_OPTS", "own"},
		{"VIMINIT", "start-up"}, {"EXINIT", "start-up"}, {"INPUTRC", "start-up"}, {"PHPRC", "own"}, {"WGETRC", "start-up"},
		{"OPENSSL_CONF", "configuration"}, {"KUBECONFIG", "configuration"}, {"NPM_CONFIG_USERCONFIG", "own"},
		{"npm_config_script_shell", "own"}, {"PIP_CONFIG_FILE", "configuration"}, {"XDG_CONFIG_HOME", "configuration"},
		{"PAGER", "helper program"}, {"MANPAGER", "helper program"}, {"EDITOR", "helper program"}, {"SSH_ASKPASS", "helper program"},
		{"SHELL", "helper program"}, {"RUSTC_WRAPPER", "helper program"}, {"LESSOPEN", "helper program"},
		{"JAVA_HOME", "own"}, {"PYTHONHOME", "own"}, {"GNUPGHOME", "home"}, {"CARGO_HOME", "home"}, {"PYENV_ROOT", "home"},
		{"PS1", "substitutions"}, {"PROMPT_COMMAND", "prompt"}, {"MAKEFILES", "makefiles"},
		{"CGO_LDFLAGS", "own"}, {"BASH_FUNC_ls%%", "own"}, {"BENCHSPEC_FORK", "role"}, {"GOFLAGS", "toolexec"},
	}
	for _, tt := range refused {
		src := "version: 1\nname: x\ndefaults:\n  env: {" + quoteKey(tt.name) + ": x}\nbenchmarks:\n  - include: a\n"
		_, err := Parse("s.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "s.yaml:4:") || !strings.Contains(err.Error(), "may not set "+tt.name+": ") ||
			!strings.Contains(err.Error(), tt.class) {
			t.Errorf("env %s: %v; want it refused at its key, naming its class (%s)", tt.name, err, tt.class)
		}
	}
	for _, name := range []string{"GOGC", "GOMAXPROCS", "GOMEMLIMIT", "GODEBUG", "GOEXPERIMENT", "MY_SETTING", "LANG", "LC_ALL", "TZ",
		"HOME", "TMPDIR", "USER", "TERM", "BENCHSPEC_RLIMIT_AS", "SEED", "APP_ENV", "SIZE", "SOURCE_DIR"} {
		v := "x"
		switch name {
		case "GOMAXPROCS":
			v = `"2"`
		case "BENCHSPEC_RLIMIT_AS", "GOMEMLIMIT":
			v = "1GiB"
		}
		src := "version: 1\nname: x\ndefaults:\n  env: {" + name + ": " + v + "}\nbenchmarks:\n  - include: a\n"
		if _, err := Parse("s.yaml", []byte(src)); err != nil {
			t.Errorf("env %s: %v; want it allowed", name, err)
		}
	}
}
