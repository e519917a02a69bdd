package spec

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/benchspec/benchspec/internal/protocol"
)

// Mode is a benchmark mode, named by JMH's short form. It is defined in
// the fork protocol, which a suite binary links without this package;
// its methods answer what varies by mode.
type Mode = protocol.Mode

// The modes, as in JMH.
const (
	ModeThroughput  = protocol.ModeThroughput
	ModeAverageTime = protocol.ModeAverageTime
	ModeSampleTime  = protocol.ModeSampleTime
	ModeSingleShot  = protocol.ModeSingleShot
)

// modeAll is the spec's shorthand for every mode.
const modeAll = "all"

// Modes returns every mode in JMH's order: what `modes: all` expands to.
func Modes() []Mode { return protocol.Modes() }

// jmhModes are the names JMH's annotations, its -bm option and its
// reports give the modes (Mode.Throughput, "AverageTime", …), by their
// letters in lower case: a JMH user's spelling, suggested rather than
// accepted, so that a spec and its reports name each mode one way.
var jmhModes = map[string]Mode{
	"throughput":     ModeThroughput,
	"averagetime":    ModeAverageTime,
	"sampletime":     ModeSampleTime,
	"singleshottime": ModeSingleShot, "singleshot": ModeSingleShot,
}

// jmhModeHint is the " (did you mean …)" of a mode written as JMH writes
// it in full (Throughput, AverageTime, single_shot_time), "" for
// anything else.
func jmhModeHint(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	key := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' || r == '.' {
			return -1
		}
		return unicode.ToLower(r)
	}, strings.TrimPrefix(strings.TrimPrefix(s, "Mode."), "mode."))
	m, ok := jmhModes[key]
	if !ok {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q, JMH's short name for it?)", string(m))
}
