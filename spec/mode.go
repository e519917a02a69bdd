package spec

import "github.com/benchspec/benchspec/internal/protocol"

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
