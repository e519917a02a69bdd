package spec

import (
	"regexp"
	"strings"
	"testing"
)

// LiteralName lets plan.match skip the regexp for an include that names one
// benchmark; where it claims a name, the regexp must match that name and
// nothing else.
func TestLiteralNameAgreesWithTheRegexp(t *testing.T) {
	for include, want := range map[string]string{
		`^sort\.Ints$`:        "sort.Ints",
		`^pkg001\.Bench0100$`: "pkg001.Bench0100",
		`^a/b=1:c$`:           "a/b=1:c",
		`^größe$`:             "größe",
		`^$`:                  "",
		`^a\$$`:               "a$",
		`sort\.Ints`:          "-",
		`^sort\.Ints`:         "-",
		`^sort.Ints$`:         "-",
		`^sort\dInts$`:        "-",
		`^(?i)sort$`:          "-",
		`^a|b$`:               "-",
		`^a\$`:                "-",
		`^a{2}$`:              "-",
	} {
		got, ok := LiteralName(include)
		if !ok {
			got = "-"
		}
		if got != want {
			t.Errorf("LiteralName(%q) = %q, want %q", include, got, want)
			continue
		}
		if !ok {
			continue
		}
		re := regexp.MustCompile(include)
		for _, s := range []string{got, got + "x", "x" + got, strings.ToUpper(got), got + "\n"} {
			if re.MatchString(s) != (s == got) {
				t.Errorf("%q: the regexp matches %q: %v; LiteralName claims only %q", include, s, re.MatchString(s), got)
			}
		}
	}
}
