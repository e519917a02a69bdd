package spec

import (
	"fmt"

	"github.com/benchspec/benchspec/internal/protocol"
)

// ThreadsMax is the value of Settings.Threads for `threads: max`
// (GOMAXPROCS of the fork).
const ThreadsMax = protocol.ThreadsMax

// Spec is one parsed, validated spec file with defaults applied.
type Spec struct {
	Path    string // as given by the caller
	SHA256  string // hex SHA-256 of the file's bytes
	Version int
	Name    string
	// Defaults are the suite defaults after the built-in defaults were applied.
	Defaults Settings
	Entries  []Entry
	// Builds are the spec's `builds:`, in the order written; none: the
	// suite as given, in one build.
	Builds []Build
}

// Entry is one element of `benchmarks:` with its settings fully resolved
// (built-in defaults, then the spec's defaults, then the entry's own keys).
type Entry struct {
	Index      int // 0-based position in `benchmarks:`
	Pos        Pos // the entry's mapping
	Include    string
	IncludePos Pos
	Exclude    string // empty: none
	ExcludePos Pos
	// IncludeQuote and ExcludeQuote are the quotes the spec wrote the
	// patterns in ('"', '\'', 0: plain), for messages that quote them
	// as written (QuotedInclude).
	IncludeQuote, ExcludeQuote byte
	// Params replaces the registered values of the named parameters.
	// ParamPos holds the position of each key for error messages.
	Params   map[string][]string
	ParamPos map[string]Pos
	// Package is the Go package whose go test benchmarks the entry runs
	// (`package:`, as written); empty: the entry selects registered
	// benchmarks.
	Package    string
	PackagePos Pos
	// SettingPos is where each settings key got its value, by key
	// ("threads", "modes", "warmup.time"): the entry's own key, else the
	// defaults'. Keys set nowhere are absent; their errors go to Pos.
	SettingPos map[string]Pos
	Settings   Settings
}

// Pos is a position in a spec file. Line and Col are 1-based.
type Pos struct {
	File      string
	Line, Col int
}

// String returns the position as path:line:col.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is one problem in a spec, at a position.
type Error struct {
	Pos Pos
	Msg string
	// Omitted, when positive, makes this the last element of an
	// ErrorList cut short: it stands for that many further errors of the
	// file Pos.File, not listed.
	Omitted int
}

// Error returns the error as path:line:col: message, or for an Omitted
// count as "path: … and N more errors".
func (e *Error) Error() string {
	if e.Omitted > 0 {
		return fmt.Sprintf("%s: … and %d more %s", e.Pos.File, e.Omitted, pluralWord(e.Omitted, "error", "errors"))
	}
	return e.Pos.String() + ": " + e.Msg
}
