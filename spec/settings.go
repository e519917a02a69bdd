package spec

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// Settings is how one benchmark is measured: the one type that the spec's
// settings keys decode into and that the plan, the forks and the report
// carry as is.
//
// Each field's JSON name is its spec key (nested phase and diagnostics
// keys too), which TestEverySchemaKeyReachesSettings relies on to tie
// the schema to the fields. In JSON, durations are Go duration strings
// ("10m0s"). The JSON report writes a run's mode and threads beside its
// settings rather than in them, so there Modes and Threads are left out
// (they are omitted when zero).
type Settings struct {
	Modes             []Mode            `json:"modes,omitempty"`   // expanded: never contains "all"
	Threads           int               `json:"threads,omitempty"` // >= 1, or ThreadsMax
	Forks             int               `json:"forks"`             // measured forks; 0 = run in-process (debugging)
	WarmupForks       int               `json:"warmup_forks"`
	Warmup            Iterations        `json:"warmup"`
	Measurement       Iterations        `json:"measurement"`
	OpsPerInvocation  int               `json:"ops_per_invocation"`
	TimeUnit          string            `json:"time_unit"` // ns | us | ms | s
	Timeout           time.Duration     `json:"timeout"`
	Env               map[string]string `json:"env"`
	GCBeforeIteration bool              `json:"gc_before_iteration"`
	Profilers         []string          `json:"profilers"`
	// Diagnostics are the thresholds of the trust diagnostics; zero
	// thresholds mean the defaults (DiagSettings.WithDefaults).
	Diagnostics DiagSettings `json:"diagnostics,omitzero"`
	// Precision, when set, makes Forks the number of forks the run starts
	// with, and adds forks until the score's error is within its target.
	Precision Precision `json:"precision,omitzero"`
}

// Iterations configures one phase (warmup or measurement).
type Iterations struct {
	Iterations int           `json:"iterations"`
	Time       time.Duration `json:"time"`
	BatchSize  int           `json:"batch_size"`
}

// MarshalJSON writes s with its fields in order, durations as Go
// duration strings.
func (s Settings) MarshalJSON() ([]byte, error) { return marshalFields(&s) }

// UnmarshalJSON reads what MarshalJSON writes; keys it does not know are
// ignored, keys that are absent leave their field as it was.
func (s *Settings) UnmarshalJSON(data []byte) error { return unmarshalFields(data, s) }

// MarshalJSON writes it with its time as a Go duration string.
func (it Iterations) MarshalJSON() ([]byte, error) { return marshalFields(&it) }

// UnmarshalJSON reads what MarshalJSON writes.
func (it *Iterations) UnmarshalJSON(data []byte) error { return unmarshalFields(data, it) }

// DefaultSettings returns the built-in settings, used for every key that
// neither the spec's defaults nor an entry sets (the defaults that
// schemas/spec.schema.json documents).
//
// Many short forks, not a few long ones: 20 forks of 2 warmup and 3
// measurement iterations of 100 ms, about 10 s a run where 3 forks of
// 3 + 5 iterations of 1 s took 24 s. The score's 99.9 % error counts
// forks (package report/stats), and between-fork variance dominates
// on the machines measured (a fresh process draws its layout, core and
// start-up state): Kalibera and Jones's allocation buys forks. With 3
// forks the interval's t is 31.6, with 20 it is 3.9, and the error
// shrinks with √forks besides; longer iterations shrink only the
// within-fork part. A fork costs a few milliseconds to start, so twenty
// of them cost less than a second of the budget. Go has no JIT to warm:
// 2 × 100 ms of warmup covers page faults, caches and the clock's
// frequency ramp, and the warmup every fork runs is what NOT_STEADY
// checks. 20 forks also let compare's rank test reach any level a
// family of runs needs (2/C(40, 20) ≈ 1.4e-11).
func DefaultSettings() Settings {
	return Settings{
		Modes:             []Mode{ModeAverageTime},
		TimeUnit:          "ns",
		Forks:             20,
		WarmupForks:       0,
		Warmup:            Iterations{Iterations: 2, Time: 100 * time.Millisecond, BatchSize: 1},
		Measurement:       Iterations{Iterations: 3, Time: 100 * time.Millisecond, BatchSize: 1},
		OpsPerInvocation:  1,
		Threads:           1,
		Timeout:           10 * time.Minute,
		GCBeforeIteration: false,
		Env:               map[string]string{},
		Profilers:         []string{},
	}
}

// Clone returns a copy of s that shares no slice or map with it.
func (s Settings) Clone() Settings {
	s.Modes = slices.Clone(s.Modes)
	s.Env = maps.Clone(s.Env)
	s.Profilers = slices.Clone(s.Profilers)
	s.Diagnostics.Ignore = slices.Clone(s.Diagnostics.Ignore)
	return s
}

// settingKeys decodes each settings key of `defaults:` and of an entry
// into Settings, overriding what the key names and nothing else. Values
// arrive validated: every value has the type and range the schema
// promises. TestEverySchemaKeyReachesSettings checks this table, and
// phaseKeys and diagKeys, against the schema. A sync.OnceValue, as the
// table's closures refer to the tables of nested keys.
var settingKeys = sync.OnceValue(func() map[string]func(s *Settings, v any) {
	return map[string]func(s *Settings, v any){
		"modes":     func(s *Settings, v any) { s.Modes = modes(v) },
		"time_unit": func(s *Settings, v any) { s.TimeUnit = v.(string) },
		"forks":     func(s *Settings, v any) { s.Forks = toInt(v) },
		"warmup_forks": func(s *Settings, v any) {
			s.WarmupForks = toInt(v)
		},
		"warmup":      func(s *Settings, v any) { applyKeys(&s.Warmup, v.(map[string]any), phaseKeys()) },
		"measurement": func(s *Settings, v any) { applyKeys(&s.Measurement, v.(map[string]any), phaseKeys()) },
		"ops_per_invocation": func(s *Settings, v any) {
			s.OpsPerInvocation = toInt(v)
		},
		"threads": func(s *Settings, v any) {
			if v == "max" {
				s.Threads = ThreadsMax
			} else {
				s.Threads = toInt(v)
			}
		},
		"timeout": func(s *Settings, v any) { s.Timeout = mustDuration(v) },
		"gc_before_iteration": func(s *Settings, v any) {
			s.GCBeforeIteration = v.(bool)
		},
		// An entry's env is merged into the defaults' variable by variable.
		"env": func(s *Settings, v any) {
			for name, val := range v.(map[string]any) {
				s.Env[name] = val.(string)
			}
		},
		"profilers": func(s *Settings, v any) { s.Profilers = stringList(v) },
		"precision": func(s *Settings, v any) { applyPrecision(&s.Precision, v.(map[string]any)) },
		"diagnostics": func(s *Settings, v any) {
			applyKeys(&s.Diagnostics, v.(map[string]any), diagKeys())
		},
	}
})

// phaseKeys decodes the keys of `warmup:` and `measurement:`.
var phaseKeys = sync.OnceValue(func() map[string]func(it *Iterations, v any) {
	return map[string]func(it *Iterations, v any){
		"iterations": func(it *Iterations, v any) { it.Iterations = toInt(v) },
		"time":       func(it *Iterations, v any) { it.Time = mustDuration(v) },
		"batch_size": func(it *Iterations, v any) { it.BatchSize = toInt(v) },
	}
})

// entryKeys are the keys of an entry that select benchmarks rather than
// set how they are measured (Entry's own fields).
var entryKeys = []string{"include", "exclude", "params", "package"}

// apply overrides s with the settings keys of m, key by key: nested
// phases and diagnostics key by key too, env variable by variable.
func apply(s *Settings, m map[string]any) {
	for k, v := range m {
		if !slices.Contains(entryKeys, k) {
			decode(settingKeys(), k)(s, v)
		}
	}
}

func applyKeys[T any](into *T, m map[string]any, keys map[string]func(*T, any)) {
	for k, v := range m {
		decode(keys, k)(into, v)
	}
}

// decode returns the decoder of key. A key that validation let through
// but that has no decoder is a key added to the schema and forgotten
// here: it panics rather than being ignored, and Parse reports the panic
// as an internal error.
func decode[T any](keys map[string]func(*T, any), key string) func(*T, any) {
	f, ok := keys[key]
	if !ok {
		panic(fmt.Sprintf("spec: the schema allows settings key %q, but nothing decodes it", key))
	}
	return f
}

// modes expands `all`, drops repeats keeping the first, and accepts a
// single mode for a list of one.
func modes(v any) []Mode {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var out []Mode
	for _, x := range list {
		names := []Mode{Mode(x.(string))}
		if x == modeAll {
			names = Modes()
		}
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// stringList converts a validated list of strings; never nil.
func stringList(v any) []string {
	out := []string{}
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
