package spec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/schemas"
)

func TestModeBehaviour(t *testing.T) {
	type behaviour struct {
		Unit, Description, Times                  string
		Valid, IsRate, Samples, Timed, TimesBatch bool
	}
	of := func(m Mode) behaviour {
		return behaviour{m.Unit("us"), m.Description(), m.Times(), m.Valid(), m.IsRate(), m.Samples(), m.TimedIterations(), m.TimesBatch()}
	}
	want := map[Mode]behaviour{
		ModeThroughput:  {"ops/us", "Throughput, ops/time", "an iteration", true, true, false, true, false},
		ModeAverageTime: {"us/op", "Average time, time/op", "an iteration", true, false, false, true, false},
		ModeSampleTime:  {"us/op", "Sampling time", "a sampled batch", true, false, true, true, true},
		ModeSingleShot:  {"us/op", "Single shot invocation time", "one batch", true, false, false, false, true},
		"all":           {"us/op", "all", "an iteration", false, false, false, true, false},
	}
	for m, w := range want {
		if diff := cmp.Diff(w, of(m)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", m, diff)
		}
	}
	if len(Modes()) != len(want)-1 {
		t.Errorf("Modes() = %v: a mode without a row here", Modes())
	}
}

// TestModesMatchSchemas ties Mode to the schemas: the spec accepts
// exactly the modes and "all", and the report's runs exactly the modes.
func TestModesMatchSchemas(t *testing.T) {
	var specSchema struct {
		Definitions struct {
			Modes struct {
				OneOf []struct {
					Enum  []string
					Items struct{ Enum []string }
				}
			}
		}
	}
	if err := json.Unmarshal(schemas.Spec, &specSchema); err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, m := range Modes() {
		modes = append(modes, string(m))
	}
	withAll := append(append([]string{}, modes...), modeAll)
	alts := specSchema.Definitions.Modes.OneOf
	if len(alts) != 2 {
		t.Fatalf("spec schema: modes has %d alternatives, want a list and a single mode", len(alts))
	}
	for _, got := range [][]string{alts[0].Items.Enum, alts[1].Enum} {
		if diff := cmp.Diff(withAll, got); diff != "" {
			t.Errorf("spec schema's modes (-Modes() and all +schema):\n%s", diff)
		}
	}
	var resultSchema struct {
		Properties struct {
			Runs struct {
				Items struct {
					Properties struct {
						Mode struct{ Enum []string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(schemas.Result, &resultSchema); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(modes, resultSchema.Properties.Runs.Items.Properties.Mode.Enum); diff != "" {
		t.Errorf("result schema's run mode (-Modes() +schema):\n%s", diff)
	}
}

// JMH's own names of the modes are suggested by their short names, in a
// list and as a single mode; the spec keeps one spelling.
func TestJMHModeNamesAreSuggested(t *testing.T) {
	tests := []struct{ mode, want string }{
		{"throughput", "thrpt"}, {"Throughput", "thrpt"}, {"THROUGHPUT", "thrpt"},
		{"AverageTime", "avgt"}, {"averagetime", "avgt"}, {"average_time", "avgt"},
		{"SampleTime", "sample"}, {"sampletime", "sample"},
		{"SingleShotTime", "ss"}, {"singleshottime", "ss"}, {"single-shot", "ss"},
		{"Mode.Throughput", "thrpt"},
	}
	for _, tt := range tests {
		for _, modes := range []string{"[" + tt.mode + "]", tt.mode} {
			src := "version: 1\nname: m\nbenchmarks:\n  - include: x\n    modes: " + modes + "\n"
			_, err := Parse("m.yaml", []byte(src))
			want := `(did you mean "` + tt.want + `", JMH's short name for it?)`
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("modes: %s: error %v, want it to contain %s", modes, err, want)
			}
		}
	}
	_, err := Parse("m.yaml", []byte("version: 1\nname: m\nbenchmarks:\n  - include: x\n    modes: [bogus]\n"))
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("modes: [bogus]: error %v, want no suggestion", err)
	}
}
