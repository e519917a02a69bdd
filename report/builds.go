package report

import (
	"maps"
	"slices"
	"strings"

	"github.com/benchspec/benchspec/plan"
)

// BuildInfo is one of a spec's builds as its binary says it was built (the
// build information the go command stamps into it): the runs of the
// build name it as their "build" param.
type BuildInfo struct {
	Name      string `json:"name"`
	GoVersion string `json:"go_version,omitempty"` // the toolchain that built it
	GCFlags   string `json:"gcflags,omitempty"`
	Tags      string `json:"tags,omitempty"` // comma-separated, as go build stamps them
	GOAMD64   string `json:"goamd64,omitempty"`
	PGO       string `json:"pgo,omitempty"` // the profile's path
}

// BuildNames are the names of the builds r's runs measured (the values
// of their plan.BuildParam), in the order of the runs; none for a batch
// of specs without builds.
func (r *Report) BuildNames() []string {
	var out []string
	seen := map[string]bool{}
	for i := range r.Runs {
		if b, ok := r.Runs[i].Params[plan.BuildParam]; ok && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return out
}

// OfBuild is the part of r that its spec's build name measured, as a
// report of that build alone: its runs without the build's parameter,
// keyed as a spec without builds keys them, so that two builds of one
// report compare as two reports do (compare --builds). Nil when no run
// has that build.
func (r *Report) OfBuild(name string) *Report {
	out := *r
	out.Runs = nil
	seg := "/" + plan.BuildParam + "=" + name
	for _, run := range r.Runs {
		if run.Params[plan.BuildParam] != name {
			continue
		}
		run.Params = maps.Clone(run.Params)
		delete(run.Params, plan.BuildParam)
		run.Key = withoutSegment(run.Key, run.Benchmark, seg)
		out.Runs = append(out.Runs, run)
	}
	if out.Runs == nil {
		return nil
	}
	out.Builds = slices.DeleteFunc(slices.Clone(r.Builds), func(b BuildInfo) bool { return b.Name != name })
	if len(out.Builds) == 0 {
		out.Builds = nil
	}
	return &out
}

// withoutSegment is key without the build's segment seg ("/build=NAME"):
// its first occurrence after the benchmark's name (anywhere, in a key
// that does not start with it) that the name's characters do not go on
// from. The key is benchmark[/param=value…][/threads=N]:mode[#N], the
// build among the params; older reports separate the mode otherwise.
func withoutSegment(key, benchmark, seg string) string {
	head, rest := benchmark, key
	if r, ok := strings.CutPrefix(key, benchmark); ok {
		rest = r
	} else {
		head = ""
	}
	for from := 0; ; {
		i := strings.Index(rest[from:], seg)
		if i < 0 {
			return key
		}
		i += from
		end := i + len(seg)
		if end == len(rest) || !nameChar(rest[end]) {
			return head + rest[:i] + rest[end:]
		}
		from = end
	}
}

// nameChar reports whether c may be part of a build's name.
func nameChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}
