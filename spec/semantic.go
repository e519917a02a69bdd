package spec

import (
	"errors"
	"regexp/syntax"
	"strconv"
	"time"
)

// Upper bounds for durations: anything longer is a typo (1000h for 1000ms),
// not a plan.
const (
	maxIterationTime = 24 * time.Hour
	maxTimeout       = 7 * 24 * time.Hour
)

// checkSemantics checks what the schema cannot: that durations parse as
// Go durations within bounds, that include and exclude compile as RE2,
// that env variables can be set (checkEnv), that builds have unique
// names (checkBuilds), and that no package entry gives group_threads
// (which the schema could say, but not in words a user reads).
// It runs after schema validation and skips values that already have an
// error, so a value is never reported twice.
func (d *document) checkSemantics() {
	root, _ := d.value.(map[string]any)
	d.checkBuilds(root)
	if defaults, ok := root["defaults"].(map[string]any); ok {
		d.checkSettings("/defaults", defaults)
	}
	entries, _ := root["benchmarks"].([]any)
	for i, e := range entries {
		entry, ok := e.(map[string]any)
		if !ok {
			continue
		}
		ptr := "/benchmarks/" + strconv.Itoa(i)
		d.checkSettings(ptr, entry)
		// Pointers are built only for the values there are: a spec of
		// 10 000 entries would otherwise build some 100 000 of them.
		if v, ok := entry["include"]; ok {
			d.checkRegexp(ptr+"/include", v)
		}
		if v, ok := entry["exclude"]; ok {
			d.checkRegexp(ptr+"/exclude", v)
		}
		if _, ok := entry["group_threads"]; ok && entry["package"] != nil && !d.suppressed(ptr+"/group_threads", nil) {
			d.errorKey(ptr+"/group_threads", "%s: package: entries run go test benchmarks, which cannot be groups: a group is registered with benchspec.RegisterGroup and selected by an entry without package:", d.display(ptr+"/group_threads"))
		}
	}
}

func (d *document) checkSettings(ptr string, m map[string]any) {
	for _, phase := range []string{"warmup", "measurement"} {
		if it, ok := m[phase].(map[string]any); ok {
			if v, ok := it["time"].(string); ok {
				d.checkDuration(ptr+"/"+phase+"/time", v, maxIterationTime)
			}
		}
	}
	if v, ok := m["timeout"].(string); ok {
		d.checkDuration(ptr+"/timeout", v, maxTimeout)
	}
	if v, ok := m["env"]; ok {
		d.checkEnv(ptr+"/env", v)
	}
}

func (d *document) checkDuration(ptr string, v any, limit time.Duration) {
	s, ok := v.(string)
	if !ok || d.errPtr[ptr] || d.suppressed(ptr, nil) {
		return
	}
	dur, err := time.ParseDuration(s)
	switch {
	case err != nil:
		d.errorPtr(ptr, "%s: invalid duration %q (use Go syntax such as 500ms, 10s, 2m)", d.display(ptr), s)
	case dur <= 0:
		d.errorPtr(ptr, "%s: must be longer than 0, got %q", d.display(ptr), s)
	case dur > limit:
		d.errorPtr(ptr, "%s: %q is too long (at most %s)", d.display(ptr), s, formatDuration(limit))
	}
}

func (d *document) checkRegexp(ptr string, v any) {
	s, ok := v.(string)
	if !ok || s == "" || d.errPtr[ptr] || d.suppressed(ptr, nil) {
		return
	}
	if len(s) > maxRegexpLen {
		// Compiling costs time and memory in proportion: a 5 MB pattern
		// takes seconds and gigabytes.
		d.errorPtr(ptr, "%s: regular expression too long (%d bytes; at most %d)", d.display(ptr), len(s), maxRegexpLen)
		return
	}
	if _, literal := LiteralName(s); literal {
		return // valid, whatever its name
	}
	// Parsing finds every error regexp.Compile reports, at a fraction of
	// its cost (the plan compiles the pattern once, to match). A large
	// spec repeats its patterns: each is parsed once.
	msg, seen := d.regexps[s]
	if !seen {
		if _, err := syntax.Parse(s, syntax.Perl); err != nil {
			msg = err.Error()
			var se *syntax.Error
			if errors.As(err, &se) {
				msg = se.Code.String() + ": `" + se.Expr + "`"
			}
		}
		if d.regexps == nil {
			d.regexps = map[string]string{}
		}
		d.regexps[s] = msg
	}
	if msg != "" {
		n, _ := d.node(ptr)
		d.errorPtr(ptr, "%s: invalid regular expression %s: %s", d.display(ptr), written(quoteOf(n), s), msg)
	}
}

// formatDuration prints whole hours as "24h" rather than "24h0m0s".
func formatDuration(d time.Duration) string {
	if d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return d.String()
}
