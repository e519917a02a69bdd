package protocol

// Mode is a benchmark mode, named by JMH's short form. What varies by
// mode — the unit of its scores, its names, what one clock reading pair
// times, whether it records a distribution — is answered here by its
// methods, so that adding a mode starts in this file.
//
// A Mode is a string so that the spec, the fork protocol and the JSON
// report spell it as JMH does. The schema's enum admits only the modes
// into a spec (TestModesMatchSchemas ties the two); a Mode read from
// elsewhere, a report, may hold any string, which Valid tells.
type Mode string

// The modes, as in JMH.
const (
	// ModeThroughput runs iterations of a fixed time and scores
	// operations per time unit.
	ModeThroughput Mode = "thrpt"
	// ModeAverageTime runs iterations of a fixed time and scores time per
	// operation.
	ModeAverageTime Mode = "avgt"
	// ModeSampleTime runs iterations of a fixed time, times randomly
	// chosen batches of invocations and scores time per operation, with
	// the distribution of the samples (percentiles, histogram).
	ModeSampleTime Mode = "sample"
	// ModeSingleShot times one batch of batch_size invocations per
	// iteration and scores time per operation: cold-start behaviour.
	ModeSingleShot Mode = "ss"
)

// Modes returns every mode in JMH's order: what `modes: all` expands to.
func Modes() []Mode {
	return []Mode{ModeThroughput, ModeAverageTime, ModeSampleTime, ModeSingleShot}
}

// Valid reports whether m is one of the modes.
func (m Mode) Valid() bool {
	switch m {
	case ModeThroughput, ModeAverageTime, ModeSampleTime, ModeSingleShot:
		return true
	}
	return false
}

// String returns the mode's short form, "thrpt": its name in specs, run
// keys, reports and JMH's JSON "mode" field.
func (m Mode) String() string { return string(m) }

// Description is JMH's long name of the mode, as its run log prints it
// after "# Benchmark mode:": "Throughput, ops/time". An invalid mode
// describes itself by its string.
func (m Mode) Description() string {
	switch m {
	case ModeThroughput:
		return "Throughput, ops/time"
	case ModeAverageTime:
		return "Average time, time/op"
	case ModeSampleTime:
		return "Sampling time"
	case ModeSingleShot:
		return "Single shot invocation time"
	}
	return string(m)
}

// IsRate reports whether the mode scores operations per time (higher is
// better) rather than time per operation (lower is better).
func (m Mode) IsRate() bool { return m == ModeThroughput }

// Unit returns the unit of the mode's scores in timeUnit: "ops/us" for
// thrpt, "us/op" for the others.
func (m Mode) Unit(timeUnit string) string {
	if m.IsRate() {
		return "ops/" + timeUnit
	}
	return timeUnit + "/op"
}

// Samples reports whether the mode times single batches of invocations
// and keeps their distribution: the metric has percentiles and a
// histogram.
func (m Mode) Samples() bool { return m == ModeSampleTime }

// TimedIterations reports whether the mode's iterations last the phase's
// time (`warmup.time`, `measurement.time`); a single-shot iteration lasts
// as long as its one batch takes.
func (m Mode) TimedIterations() bool { return m != ModeSingleShot }

// TimesBatch reports whether one clock reading pair of the mode times a
// batch of batch_size invocations (sample, ss) rather than a whole
// iteration (thrpt, avgt).
func (m Mode) TimesBatch() bool { return m == ModeSampleTime || m == ModeSingleShot }

// Times says what one clock reading pair of the mode times: "an
// iteration" (thrpt, avgt), "a sampled batch" (sample), or "one batch",
// the only one of its iteration (ss).
func (m Mode) Times() string {
	switch m {
	case ModeSampleTime:
		return "a sampled batch"
	case ModeSingleShot:
		return "one batch"
	}
	return "an iteration"
}
