package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// leaves returns the leaf fields of a settings struct by JSON path
// ("warmup.time"), as spec's TestEverySchemaKeyReachesSettings ties them
// to the spec schema's keys.
func leaves(v reflect.Value, prefix string, into map[string]reflect.Value) map[string]reflect.Value {
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous { // spec.Settings embeds the fork's settings
			leaves(v.Field(i), prefix, into)
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			leaves(v.Field(i), prefix+name+".", into)
			continue
		}
		into[prefix+name] = v.Field(i)
	}
	return into
}

// TestReportCarriesEverySetting sets every field of spec.Settings to a
// value other than its default, builds a report of a run with those
// settings, writes it as JSON and reads it back: the run's settings come
// back as the plan had them, each field is a key of the JSON's settings
// (modes and threads as the run's "mode" and "threads"), so a settings
// field added to spec reaches the report without a line here.
func TestReportCarriesEverySetting(t *testing.T) {
	mode := spec.ModeThroughput
	s := spec.DefaultSettings()
	for path, f := range leaves(reflect.ValueOf(&s).Elem(), "", map[string]reflect.Value{}) {
		switch v := f.Addr().Interface().(type) {
		case *int:
			*v = 7
		case *float64:
			*v = 0.37
		case *bool:
			*v = true
		case *string:
			*v = "us"
		case *time.Duration:
			*v = 1500 * time.Millisecond
		case *[]spec.Mode:
			*v = []spec.Mode{mode}
		case *[]string:
			*v = []string{"x"}
		case *map[string]string:
			*v = map[string]string{"K": "v"}
		case *map[string]int:
			*v = map[string]int{"k": 2}
		default:
			t.Fatalf("%s: no test value for a %s", path, f.Type())
		}
	}
	def := leaves(reflect.ValueOf(spec.DefaultSettings()), "", map[string]reflect.Value{})
	for path, f := range leaves(reflect.ValueOf(s), "", map[string]reflect.Value{}) {
		if reflect.DeepEqual(f.Interface(), def[path].Interface()) {
			t.Errorf("%s: the test value %v is the default", path, f)
		}
	}

	p := &plan.Plan{Suite: "settings", Runs: []plan.Run{{Key: "b#thrpt", Benchmark: "b", Mode: mode, Settings: s}}}
	forks := []protocol.ForkResult{fork(0, 1, false, timed(protocol.PhaseMeasurement, 1, 1000, 10))}
	data := writeJSON(t, Build(p, forks, Env{GOMAXPROCS: 1}))
	rep, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, rep.Runs[0].Settings); diff != "" {
		t.Errorf("settings after Build, JSON and Read (-plan +report):\n%s", diff)
	}

	var doc struct {
		Runs []map[string]json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var written map[string]any
	if err := json.Unmarshal(doc.Runs[0]["settings"], &written); err != nil {
		t.Fatal(err)
	}
	runKeys := map[string]string{"modes": "mode", "threads": "threads"}
	for path := range def {
		key, sub, nested := strings.Cut(path, ".")
		switch runKey, ok := runKeys[path]; {
		case ok:
			if _, in := written[key]; in || doc.Runs[0][runKey] == nil {
				t.Errorf("%s: want it as the run's %q, not in its settings", path, runKey)
			}
		case nested:
			if m, _ := written[key].(map[string]any); m == nil || m[sub] == nil {
				t.Errorf("%s: not in the JSON settings %s", path, doc.Runs[0]["settings"])
			}
		case written[key] == nil:
			t.Errorf("%s: not in the JSON settings %s", path, doc.Runs[0]["settings"])
		}
	}
}
