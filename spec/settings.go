package spec

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
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
	Modes []Mode `json:"modes,omitempty"` // expanded: never contains "all"
	// Settings are the keys that change how a fork measures: the plan
	// hands them to every fork as they are.
	protocol.Settings
	Forks       int               `json:"forks"` // measured forks; 0 = run in-process (debugging)
	WarmupForks int               `json:"warmup_forks"`
	TimeUnit    string            `json:"time_unit"` // ns | us | ms | s
	Timeout     time.Duration     `json:"timeout"`
	Env         map[string]string `json:"env"`
	// Diagnostics are the thresholds of the trust diagnostics; zero
	// thresholds mean the defaults (DiagSettings.WithDefaults).
	Diagnostics DiagSettings `json:"diagnostics,omitzero"`
	// Precision, when set, makes Forks the number of forks the run starts
	// with, and adds forks until the score's error is within its target.
	Precision Precision `json:"precision,omitzero"`
	// Complexity, when set, makes the report fit how the time per op
	// grows with the one swept numeric param (ComplexityParam): "auto",
	// or the class to test.
	Complexity string `json:"complexity,omitempty"`
	// GroupThreads gives a group's members their threads (JMH's
	// @GroupThreads), by member name; a member it leaves out runs on
	// one. The plan resolves it into plan.Run.Group.
	GroupThreads map[string]int `json:"group_threads,omitempty"`
}

// Iterations configures one phase (warmup or measurement).
type Iterations = protocol.Phase

// MarshalJSON writes s with its fields in the report's key order
// (settingsKeyOrder), durations as Go duration strings.
func (s Settings) MarshalJSON() ([]byte, error) { return marshalFields(&s, settingsKeyOrder) }

// UnmarshalJSON reads what MarshalJSON writes; keys it does not know are
// ignored, keys that are absent leave their field as it was.
func (s *Settings) UnmarshalJSON(data []byte) error { return unmarshalFields(data, s) }

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
		Modes: []Mode{ModeAverageTime},
		Settings: protocol.Settings{
			Threads:          1,
			Warmup:           Iterations{Iterations: 2, Time: 100 * time.Millisecond, BatchSize: 1},
			Measurement:      Iterations{Iterations: 3, Time: 100 * time.Millisecond, BatchSize: 1},
			OpsPerInvocation: 1,
			Profilers:        []string{},
		},
		TimeUnit: "ns",
		Forks:    20,
		Timeout:  10 * time.Minute,
		Env:      map[string]string{},
	}
}

// Clone returns a copy of s that shares no slice or map with it.
func (s Settings) Clone() Settings {
	s.Modes = slices.Clone(s.Modes)
	s.Env = maps.Clone(s.Env)
	s.GroupThreads = maps.Clone(s.GroupThreads)
	s.Profilers = slices.Clone(s.Profilers)
	s.Diagnostics.Ignore = slices.Clone(s.Diagnostics.Ignore)
	return s
}

// settingKeys decodes the settings keys whose spec value is not simply
// their field's: `modes` (a single mode, or all), `threads` (max),
// `complexity` (off) and `group_threads` (integers).
// Every other key is decoded into the field of its JSON name by set.
var settingKeys = map[string]func(s *Settings, v any){
	"complexity": func(s *Settings, v any) { s.Complexity = strings.TrimPrefix(v.(string), "off") },
	"group_threads": func(s *Settings, v any) {
		s.GroupThreads = map[string]int{}
		for m, n := range v.(map[string]any) {
			s.GroupThreads[m] = toInt(n)
		}
	},
	"modes": func(s *Settings, v any) { s.Modes = modes(v) },
	"threads": func(s *Settings, v any) {
		if v == "max" {
			s.Threads = ThreadsMax
		} else {
			s.Threads = toInt(v)
		}
	},
}

// entryKeys are the keys of an entry that select benchmarks rather than
// set how they are measured (Entry's own fields).
var entryKeys = []string{"include", "exclude", "params", "package"}

// apply overrides s with the settings keys of m, key by key: nested
// phases, diagnostics and precision key by key too, env variable by
// variable. Values arrive validated: every value has the type and range
// the schema promises.
func apply(s *Settings, m map[string]any) {
	for k, v := range m {
		if f, ok := settingKeys[k]; ok {
			f(s, v)
		} else if !slices.Contains(entryKeys, k) {
			set(reflect.ValueOf(s).Elem(), k, v)
		}
	}
}

// set decodes v into the field of the struct into whose JSON name is
// key. A key that validation let through but that no field has is a key
// added to the schema and forgotten in Settings: it panics rather than
// being ignored, and Parse reports the panic as an internal error.
func set(into reflect.Value, key string, v any) {
	i := slices.IndexFunc(fields(into), func(f field) bool { return f.name == key })
	if i < 0 {
		panic(fmt.Sprintf("spec: the schema allows settings key %q, but nothing decodes it", key))
	}
	f := fields(into)[i].v
	switch {
	case f.Type() == durationType():
		f.SetInt(int64(mustDuration(v)))
	case f.Kind() == reflect.Struct:
		for k, x := range v.(map[string]any) {
			set(f, k, x)
		}
	case f.Kind() == reflect.Map: // env: merged variable by variable
		for k, x := range v.(map[string]any) {
			f.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(x.(string)))
		}
	case f.Kind() == reflect.Slice:
		f.Set(reflect.ValueOf(stringList(v)))
	case f.Kind() == reflect.Bool:
		f.SetBool(v.(bool))
	case f.Kind() == reflect.Int:
		f.SetInt(int64(toInt(v)))
	case f.Kind() == reflect.Float64:
		f.SetFloat(toFloat(v))
	default:
		f.SetString(v.(string))
	}
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
