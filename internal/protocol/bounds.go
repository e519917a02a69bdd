package protocol

import (
	"strconv"
	"unicode/utf8"
)

// Bounds on what a fork may send. The parent enforces them on every
// line it reads (a fork's code may forge the pipe), the worker keeps to
// them before it sends: a b.Fatalf with 50 MB of text must cost the
// parent, the report and the terminal no more than MaxTextBytes.
const (
	// MaxTextBytes bounds a text a fork reports: an error, a skip
	// reason. Longer text is cut (Truncate).
	MaxTextBytes = 64 << 10
	// MaxLineBytes bounds one message on the result pipe. The largest a
	// healthy fork writes is a sample-mode iteration's histogram, at most
	// about 14 600 buckets (a few hundred KB).
	MaxLineBytes = 4 << 20
	// MaxForkBytes bounds all the messages of one fork together.
	MaxForkBytes = 256 << 20
	// MaxMetrics bounds the metrics of one message (an iteration's or
	// the fork's), MaxNameBytes the length of a metric's unit or a
	// profile's kind, MaxPathBytes that of a profile's path.
	MaxMetrics   = 1024
	MaxNameBytes = 256
	MaxPathBytes = 4096
	// MaxMembers bounds a benchmark group's members (Run.Group,
	// Iteration.Members): a group iteration carries one part per member,
	// each with its own histogram in sample mode, in one message.
	MaxMembers = 16
)

// Truncate returns s cut to at most about max bytes, at a character
// boundary, with a marker that says how much was cut: "… [truncated N
// bytes]". s is returned as is when it fits.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… [truncated " + strconv.Itoa(len(s)-cut) + " bytes]"
}
