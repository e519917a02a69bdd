package spec

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
)

func TestParseFull(t *testing.T) {
	const path = "testdata/good/full.yaml"
	got, err := ParseFile(path)
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(line, col int) Pos { return Pos{File: path, Line: line, Col: col} }
	defaults := Settings{
		Modes:       []Mode{"avgt", "thrpt"},
		TimeUnit:    "us",
		Forks:       2,
		WarmupForks: 0,
		Settings: protocol.Settings{
			Warmup:            Iterations{Iterations: 2, Time: 500 * time.Millisecond, BatchSize: 1},
			Measurement:       Iterations{Iterations: 10, Time: 100 * time.Millisecond, BatchSize: 1000},
			OpsPerInvocation:  1,
			Threads:           ThreadsMax,
			GCBeforeIteration: false,
			Profilers:         []string{"gc"},
		},
		Timeout: 10 * time.Minute,
		Env:     map[string]string{"GOGC": "100", "GOMAXPROCS": "4"},
	}
	first := defaults.Clone()
	first.Modes = []Mode{"ss"}
	first.Measurement.BatchSize = 1000000
	first.Env["GOGC"] = "off"
	second := defaults.Clone()
	second.Modes = []Mode{"thrpt", "avgt", "sample", "ss"}
	second.Threads = 4
	second.Timeout = time.Minute
	second.Warmup.Iterations = 0
	second.GCBeforeIteration = true
	second.Profilers = []string{}
	want := &Spec{
		Path:     path,
		SHA256:   sha256Hex(data),
		Version:  1,
		Name:     "seeds",
		Defaults: defaults,
		Entries: []Entry{
			{
				Index:        0,
				Pos:          pos(14, 5),
				Include:      `^counter\.Inc[123]$`,
				IncludePos:   pos(14, 14),
				Exclude:      "Slow",
				ExcludePos:   pos(15, 14),
				IncludeQuote: '\'', ExcludeQuote: '\'',
				Params: map[string][]string{
					"size":  {"10", "1000"},
					"fast":  {"true"},
					"ratio": {"0.5"},
					"name":  {"abc"},
				},
				ParamPos: map[string]Pos{
					"size":  pos(16, 14),
					"fast":  pos(16, 32),
					"ratio": pos(16, 44),
					"name":  pos(16, 56),
				},
				SettingPos: map[string]Pos{
					"env": pos(19, 10), "forks": pos(7, 10), "measurement": pos(18, 18),
					"measurement.batch_size": pos(18, 31), "measurement.iterations": pos(9, 29),
					"modes": pos(17, 12), "profilers": pos(12, 14), "threads": pos(10, 12),
					"time_unit": pos(6, 14), "warmup": pos(8, 11), "warmup.time": pos(8, 18),
				},
				Settings: first,
			},
			{
				Index:      1,
				Pos:        pos(20, 5),
				Include:    "sqrt",
				IncludePos: pos(20, 14),
				Params:     map[string][]string{},
				ParamPos:   map[string]Pos{},
				SettingPos: map[string]Pos{
					"env": pos(11, 8), "forks": pos(7, 10), "gc_before_iteration": pos(25, 26),
					"measurement": pos(9, 16), "measurement.batch_size": pos(9, 45),
					"measurement.iterations": pos(9, 29), "modes": pos(21, 12),
					"profilers": pos(26, 16), "threads": pos(22, 14), "time_unit": pos(6, 14),
					"timeout": pos(23, 14), "warmup": pos(24, 13), "warmup.iterations": pos(24, 26),
					"warmup.time": pos(8, 18),
				},
				Settings: second,
			},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseFile(%s) mismatch (-want +got):\n%s", path, diff)
	}
}

// TestOverrides checks how one key travels from the built-in defaults
// through `defaults:` to an entry.
func TestOverrides(t *testing.T) {
	tests := []struct {
		name     string
		defaults string // YAML lines under defaults:, indented by 2
		entry    string // YAML lines of the entry after include, indented by 4
		change   func(s *Settings)
	}{
		{name: "built-in", change: func(s *Settings) {}},
		{
			name:     "nested key alone",
			defaults: "  warmup: {time: 2s}\n",
			entry:    "    warmup: {iterations: 7}\n",
			change: func(s *Settings) {
				s.Warmup = Iterations{Iterations: 7, Time: 2 * time.Second, BatchSize: 1}
			},
		},
		{
			name:     "env merges",
			defaults: "  env: {GOGC: '100', GODEBUG: x}\n",
			entry:    "    env: {GOGC: 'off', GOMAXPROCS: '2'}\n",
			change: func(s *Settings) {
				s.Env = map[string]string{"GOGC": "off", "GODEBUG": "x", "GOMAXPROCS": "2"}
			},
		},
		{
			name:     "entry replaces lists",
			defaults: "  modes: [thrpt]\n  profilers: [gc, cpu]\n",
			entry:    "    modes: sample\n    profilers: [heap]\n",
			change: func(s *Settings) {
				s.Modes = []Mode{"sample"}
				s.Profilers = []string{"heap"}
			},
		},
		{
			name:     "diagnostics key by key, ignore replaced",
			defaults: "  diagnostics: {ignore: [DEAD_CODE, IN_PROCESS], high_variance_cv: 0.2, not_steady_p: 1e-4}\n",
			entry:    "    diagnostics: {ignore: [MULTIMODAL], not_steady_p: 0.01, multimodal_min_values: 50}\n",
			change: func(s *Settings) {
				s.Diagnostics = DiagSettings{Ignore: []string{"MULTIMODAL"}, HighVarianceCV: 0.2, NotSteadyP: 0.01, MultimodalMinValues: 50}
			},
		},
		{
			name:  "modes all expands and dedups",
			entry: "    modes: [ss, all, ss, avgt]\n",
			change: func(s *Settings) {
				s.Modes = []Mode{"ss", "thrpt", "avgt", "sample"}
			},
		},
		{
			name:     "threads max then number",
			defaults: "  threads: max\n",
			change:   func(s *Settings) { s.Threads = ThreadsMax },
		},
		{
			name:  "integers in other notations (YAML 1.2 hexadecimal, exponent)",
			entry: "    forks: 0x0A\n    measurement: {batch_size: 1e6, iterations: 1000}\n",
			change: func(s *Settings) {
				s.Forks = 10
				s.Measurement = Iterations{Iterations: 1000, Time: 100 * time.Millisecond, BatchSize: 1000000}
			},
		},
		{
			name:     "scalars",
			defaults: "  time_unit: ms\n  warmup_forks: 1\n  ops_per_invocation: 8\n  timeout: 1h30m\n  gc_before_iteration: true\n",
			entry:    "    measurement: {time: 500µs}\n    warmup: {time: '1.5s'}\n",
			change: func(s *Settings) {
				s.Measurement.Time = 500 * time.Microsecond
				s.Warmup.Time = 1500 * time.Millisecond
				s.TimeUnit = "ms"
				s.WarmupForks = 1
				s.OpsPerInvocation = 8
				s.Timeout = 90 * time.Minute
				s.GCBeforeIteration = true
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "version: 1\nname: t\n"
			if tt.defaults != "" {
				src += "defaults:\n" + tt.defaults
			}
			src += "benchmarks:\n  - include: x\n" + tt.entry
			s, err := Parse("t.yaml", []byte(src))
			if err != nil {
				t.Fatalf("Parse:\n%v\nsource:\n%s", err, src)
			}
			want := DefaultSettings()
			tt.change(&want)
			if diff := cmp.Diff(want, s.Entries[0].Settings); diff != "" {
				t.Errorf("entry settings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParams(t *testing.T) {
	src := "version: 1\nname: p\nbenchmarks:\n  - include: x\n    params:\n      n: 0x10\n      f: [1.50, 2e3, -0.25]\n      b: [true, false]\n      s: 'quoted 1'\n      'odd key': [yes]\n"
	s, err := Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"n":       {"16"},
		"f":       {"1.5", "2000", "-0.25"},
		"b":       {"true", "false"},
		"s":       {"quoted 1"},
		"odd key": {"yes"},
	}
	if diff := cmp.Diff(want, s.Entries[0].Params); diff != "" {
		t.Errorf("params mismatch (-want +got):\n%s", diff)
	}
	if got, want := s.Entries[0].ParamPos["f"], (Pos{File: "p.yaml", Line: 7, Col: 7}); got != want {
		t.Errorf("ParamPos[f] = %v, want %v", got, want)
	}
}

func TestAliasesAndMerge(t *testing.T) {
	src := `version: 1
name: merge
defaults: &d
  forks: 1
  measurement: &m {iterations: 2}
benchmarks:
  - include: a
    measurement:
      <<: *m
      time: 2s
  - include: b
    <<: [{forks: 4, threads: 2}, {forks: 5, warmup_forks: 1}]
    threads: 3
`
	s, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Entries[0].Settings, s.Entries[1].Settings
	if got, want := a.Measurement, (Iterations{Iterations: 2, Time: 2 * time.Second, BatchSize: 1}); got != want {
		t.Errorf("a.Measurement = %+v, want %+v", got, want)
	}
	// Keys written in the mapping win over merged ones; earlier merged
	// mappings win over later ones.
	if b.Forks != 4 || b.Threads != 3 || b.WarmupForks != 1 {
		t.Errorf("b: forks %d threads %d warmup_forks %d, want 4 3 1", b.Forks, b.Threads, b.WarmupForks)
	}
}
