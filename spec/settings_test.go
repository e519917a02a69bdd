package spec

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/schemas"
)

// nonDefault is, for every settings key of the schema (nested keys as
// "warmup.time"), a YAML value that differs from the built-in default.
// TestEverySchemaKeyReachesSettings checks it against the schema, so a
// key added to the schema needs a line here.
var nonDefault = map[string]string{
	"modes":                                   "[thrpt, ss]",
	"time_unit":                               "us",
	"forks":                                   "5",
	"warmup_forks":                            "2",
	"warmup.iterations":                       "7",
	"warmup.time":                             "250ms",
	"warmup.batch_size":                       "4",
	"measurement.iterations":                  "9",
	"measurement.time":                        "750ms",
	"measurement.batch_size":                  "16",
	"ops_per_invocation":                      "8",
	"threads":                                 "max",
	"timeout":                                 "90s",
	"gc_before_iteration":                     "true",
	"env":                                     "{GOGC: 'off'}",
	"profilers":                               "[cpu]",
	"diagnostics.ignore":                      "[DEAD_CODE]",
	"diagnostics.dead_code_ratio":             "5",
	"diagnostics.timer_ratio":                 "0.5",
	"diagnostics.not_steady_p":                "0.05",
	"diagnostics.not_steady_slope":            "0.5",
	"diagnostics.forks_disagree_p":            "0.05",
	"diagnostics.forks_disagree_ratio":        "20",
	"diagnostics.forks_disagree_spread":       "0.5",
	"diagnostics.multimodal_mvalue":           "4",
	"diagnostics.multimodal_separation":       "0.5",
	"diagnostics.multimodal_min_values":       "100",
	"diagnostics.high_variance_cv":            "0.5",
	"diagnostics.high_variance_outlier_shift": "0.5",
	"precision.error":                         "2%",
	"precision.max_forks":                     "7",
	"precision.max_iterations":                "12",
	"precision.max_time":                      "3m",
	"complexity":                              "nlogn",
	"group_threads":                           "{write: 2, read: 3}",
}

// entryOnly are the settings keys that only an entry may set, never
// `defaults:`: which members a group has is the business of the entry
// that selects it.
var entryOnly = []string{"group_threads"}

// schemaSettingKeys returns the settings keys of spec.schema.json, nested
// object keys as "warmup.time", after checking that `defaults:` and an
// entry allow the same settings, entryOnly's in the entry alone.
func schemaSettingKeys(t *testing.T) []string {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(schemas.Spec, &root); err != nil {
		t.Fatal(err)
	}
	defs := root["definitions"].(map[string]any)
	resolve := func(node any) map[string]any {
		m := node.(map[string]any)
		for {
			ref, ok := m["$ref"].(string)
			if !ok {
				return m
			}
			m = defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
		}
	}
	props := func(node any) map[string]any { p, _ := resolve(node)["properties"].(map[string]any); return p }
	defaults := props(root["properties"].(map[string]any)["defaults"])
	entry := props(defs["entry"])
	for _, k := range entryKeys {
		if entry[k] == nil {
			t.Errorf("entry key %q is not in the schema's entry", k)
		}
		delete(entry, k)
	}
	settings := maps.Clone(defaults)
	for _, k := range entryOnly {
		if defaults[k] != nil || entry[k] == nil {
			t.Errorf("%s: want it in the schema's entry and not in its defaults", k)
		}
		settings[k] = entry[k]
		delete(entry, k)
	}
	if diff := cmp.Diff(sortedKeys(defaults), sortedKeys(entry)); diff != "" {
		t.Errorf("defaults and entry allow different settings (-defaults +entry):\n%s", diff)
	}
	var keys []string
	for k, v := range settings {
		sub := props(v)
		if sub == nil {
			keys = append(keys, k)
		}
		for sk := range sub {
			keys = append(keys, k+"."+sk)
		}
	}
	sort.Strings(keys)
	return keys
}

// settingsFields returns the leaf fields of v (Settings), by JSON path:
// the phases and diagnostics by their own keys, "warmup.time".
func settingsFields(v reflect.Value, prefix string, into map[string]reflect.Value) map[string]reflect.Value {
	for _, f := range fields(v) {
		if f.v.Kind() == reflect.Struct {
			settingsFields(f.v, prefix+f.name+".", into)
			continue
		}
		into[prefix+f.name] = f.v
	}
	return into
}

// TestEverySchemaKeyReachesSettings ties the schema to Settings: every
// settings key of spec.schema.json, set to a value other than its
// default in `defaults:` (unless entryOnly) or in an entry, changes the field of Settings
// whose JSON name is the key, and no other field; and every field of
// Settings has such a key. A key added to the schema but forgotten in the
// decoders, in the field list or in nonDefault fails here.
func TestEverySchemaKeyReachesSettings(t *testing.T) {
	keys := schemaSettingKeys(t)
	if diff := cmp.Diff(keys, sortedKeys(nonDefault)); diff != "" {
		t.Errorf("settings keys of the schema (-) and of nonDefault (+) differ:\n%s", diff)
	}
	base := DefaultSettings()
	fieldPaths := sortedKeys(settingsFields(reflect.ValueOf(base), "", map[string]reflect.Value{}))
	if diff := cmp.Diff(keys, fieldPaths); diff != "" {
		t.Errorf("settings keys of the schema (-) and fields of Settings (+) differ:\n%s", diff)
	}
	for _, key := range keys {
		yaml := key + ": " + nonDefault[key]
		if k, sub, nested := strings.Cut(key, "."); nested {
			yaml = k + ": {" + sub + ": " + nonDefault[key] + "}"
		}
		for _, where := range []string{"defaults", "entry"} {
			if where == "defaults" && slices.Contains(entryOnly, key) {
				continue
			}
			doc := "version: 1\nname: keys\ndefaults:\n  " + yaml + "\nbenchmarks:\n  - include: x\n"
			if where == "entry" {
				doc = "version: 1\nname: keys\nbenchmarks:\n  - include: x\n    " + yaml + "\n"
			}
			s, err := Parse("keys.yaml", []byte(doc))
			if err != nil {
				t.Errorf("%s in %s: %v\n%s", key, where, err, doc)
				continue
			}
			got := settingsFields(reflect.ValueOf(s.Entries[0].Settings), "", map[string]reflect.Value{})
			want := settingsFields(reflect.ValueOf(base), "", map[string]reflect.Value{})
			for path, g := range got {
				same := reflect.DeepEqual(g.Interface(), want[path].Interface())
				switch {
				case path == key && same:
					t.Errorf("%s: %s in %s left the field at its default %v", key, yaml, where, g)
				case path != key && !same:
					t.Errorf("%s: %s in %s changed %s too: %v, want the default %v", key, yaml, where, path, g, want[path])
				}
			}
		}
	}
}

// TestUnknownSettingsKeyPanics shows that a key the schema lets through
// but no decoder knows is not ignored.
func TestUnknownSettingsKeyPanics(t *testing.T) {
	for name, run := range map[string]func(){
		"settings":    func() { s := DefaultSettings(); apply(&s, map[string]any{"warmup_seconds": int64(1)}) },
		"phase":       func() { s := DefaultSettings(); apply(&s, map[string]any{"warmup": map[string]any{"count": int64(1)}}) },
		"diagnostics": func() { s := DefaultSettings(); apply(&s, map[string]any{"diagnostics": map[string]any{"x": 1.0}}) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nothing decodes it") {
					t.Errorf("%s: recovered %v, want the panic naming the key", name, r)
				}
			}()
			run()
		}()
	}
}

// TestSettingsJSON checks the JSON of Settings: keys in field order,
// durations as Go strings, Modes and Threads left out when zero, and
// that what it writes reads back to the same settings.
func TestSettingsJSON(t *testing.T) {
	s := DefaultSettings()
	s.Env["GOGC"] = "<off>"
	s.Diagnostics = DefaultDiagSettings()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"modes":["avgt"],"threads":1,"forks":20,"warmup_forks":0,` +
		`"warmup":{"iterations":2,"time":"100ms","batch_size":1},"measurement":{"iterations":3,"time":"100ms","batch_size":1},` +
		`"ops_per_invocation":1,"time_unit":"ns","timeout":"10m0s","env":{"GOGC":"\u003coff\u003e"},"gc_before_iteration":false,"profilers":[],` +
		`"diagnostics":{"ignore":[],"dead_code_ratio":3,"timer_ratio":0.01,"not_steady_p":0.001,"not_steady_slope":0.01,` +
		`"forks_disagree_p":0.001,"forks_disagree_ratio":9,"forks_disagree_spread":0.05,"multimodal_mvalue":3.2,` +
		`"multimodal_separation":0.1,"multimodal_min_values":30,"high_variance_cv":0.1,"high_variance_outlier_shift":0.05}}`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	var back Settings
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}

	s.Modes, s.Threads, s.Diagnostics = nil, 0, DiagSettings{}
	data, _ = json.Marshal(s)
	for _, key := range []string{`"modes"`, `"threads"`, `"diagnostics"`} {
		if strings.Contains(string(data), key) {
			t.Errorf("%s written when zero: %s", key, data)
		}
	}

	for _, bad := range []string{`{"timeout":"ten minutes"}`, `{"warmup":{"time":5}}`, `{"forks":"3"}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	var d Settings
	if err := json.Unmarshal([]byte(`{"timeout":"1m30s","warmup":{"time":"2s"},"unknown":1}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.Timeout != 90*time.Second || d.Warmup.Time != 2*time.Second || !slices.Equal(d.Modes, nil) {
		t.Errorf("read %+v", d)
	}
}
