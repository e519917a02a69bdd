package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/schemas"
)

func renderJSON(t *testing.T, rep *Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestJSONValidatesAgainstSchema(t *testing.T) {
	p, forks, env := fixture()
	reports := map[string]*Report{"fixture": Build(p, forks, env), "no forks": Build(p, nil, env)}
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(schemas.Result))
	if err != nil {
		t.Fatalf("result.schema.json: %v", err)
	}
	for name, rep := range reports {
		res, err := schema.Validate(gojsonschema.NewBytesLoader(renderJSON(t, rep)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range res.Errors() {
			t.Errorf("%s: %s", name, e)
		}
	}
}

func TestSchemaCatchesDrift(t *testing.T) {
	p, forks, env := fixture()
	var doc map[string]any
	if err := json.Unmarshal(renderJSON(t, Build(p, forks, env)), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc["runs"].([]any)[0].(map[string]any)
	run["primary_metric"].(map[string]any)["scoreError"] = 1.0 // camelCase drift
	run["primary_metric"].(map[string]any)["score"] = "NaN"    // a string where a number belongs
	b, _ := json.Marshal(doc)
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(schemas.Result))
	if err != nil {
		t.Fatal(err)
	}
	res, err := schema.Validate(gojsonschema.NewBytesLoader(b))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid() {
		t.Errorf("a report with an unknown field and a string score validates")
	}
}

func TestJSONNullNotNaN(t *testing.T) {
	p, forks, env := fixture()
	out := string(renderJSON(t, Build(p, forks, env)))
	for _, bad := range []string{"NaN", "Inf", `"null"`} {
		if strings.Contains(out, bad) {
			t.Errorf("JSON contains %s", bad)
		}
	}
	if !strings.HasSuffix(out, "}\n") {
		t.Errorf("JSON does not end with a newline")
	}
	var doc struct {
		Runs []struct {
			Primary *struct {
				ScoreError      *float64   `json:"score_error"`
				ScoreConfidence []*float64 `json:"score_confidence"`
			} `json:"primary_metric"`
			Status string `json:"status"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if e := doc.Runs[1].Primary; e.ScoreError != nil || e.ScoreConfidence[0] != nil || e.ScoreConfidence[1] != nil {
		t.Errorf("n = 1: score_error %v, confidence %v; want null", e.ScoreError, e.ScoreConfidence)
	}
	if doc.Runs[3].Status != "failed" || doc.Runs[3].Primary != nil {
		t.Errorf("failed run: primary_metric = %v, want null", doc.Runs[3].Primary)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	p, forks, env := fixture()
	want := Build(p, forks, env)
	got, err := Read(bytes.NewReader(renderJSON(t, want)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, floatCmp); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// otherKeys are the keys every report has besides schema_version and runs.
const otherKeys = `"complete": true, "suite": "s", "env": {}, "specs": [], `

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, doc, err string
	}{
		{"unknown fields are fine", `{"schema_version": 1, ` + otherKeys + `"from_the_future": true, "runs": []}`, ""},
		{"version 1", `{"schema_version": 1, ` + otherKeys + `"runs": []}`, ""},
		{"nulls are keys", `{"schema_version": 2, "complete": false, "suite": "", "env": {}, "specs": null, "runs": null}`, ""},
		{"newer version", `{"schema_version": 3}`, "unsupported schema_version 3 (this build reads 1 and 2)"},
		{"no version", `{"runs": []}`, "unsupported schema_version 0"},
		{"no runs", `{"schema_version": 2, "x": "aaaa"}`, `not a batch's report: it has no "complete", "suite", "env", "specs", "runs"`},
		{"one key missing", `{"schema_version": 2, "complete": true, "suite": "s", "env": {}, "runs": []}`, `it has no "specs" (`},
		{"not JSON", `score: 1`, "reading JSON report"},
		{"string number", `{"schema_version": 1, "env": {"timer_overhead_ns": "NaN"}}`, "number or null expected"},
		{"trailing newline is fine", "{\"schema_version\": 1, " + otherKeys + "\"runs\": []}\n\n", ""},
		{"trailing garbage", `{"schema_version": 1, "runs": []} garbage`, "data after the report"},
		{"a second report", `{"schema_version": 1, "runs": []}{"schema_version": 1, "runs": []}`, "data after the report"},
		{"a stray brace", `{"schema_version": 1, "runs": []}}`, "data after the report"},
		{"out of range", `{"schema_version": 1, "env": {"timer_overhead_ns": 1e999}}`, "number or null expected"},
	} {
		_, err := Read(strings.NewReader(tc.doc))
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: Read error %v, want %q", tc.name, err, tc.err)
		}
	}
}

// TestReadIsBounded: an input over MaxBytes is refused having read at
// most MaxBytes+1 bytes of it, whatever it holds.
func TestReadIsBounded(t *testing.T) {
	endless := io.MultiReader(strings.NewReader(`{"schema_version": 2, "x": "`), letters{})
	_, err := Read(endless)
	if err == nil || !strings.Contains(err.Error(), "more than a report may have (256 MiB)") {
		t.Errorf("Read of an endless input: %v", err)
	}
}

// letters is an endless reader of a's.
type letters struct{}

func (letters) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// An ok run's statistics are finite: null (how JSON carries a value
// that is not finite) is refused where Build always writes a number,
// naming the run and the field; failed and skipped runs may carry null,
// and so may what does not exist (the error of one fork).
func TestReadRefusesNullStatisticsInOkRuns(t *testing.T) {
	run := func(status, primary string) string {
		return `{"schema_version": 2, ` + otherKeys + `"runs": [{"key": "a:avgt", "mode": "avgt", "status": "` + status + `", "primary_metric": ` + primary + `}]}`
	}
	const good = `{"score": 12, "score_error": 3, "score_confidence": [9, 15], "iteration_error": 1, "count": 4, "stdev": 1.5, "min": 10, "max": 14,
		"percentiles": {"0.0": 10, "100.0": 14}, "raw_data": [[10, 11], [13, 14]]}`
	const oneFork = `{"score": 12, "score_error": null, "score_confidence": [null, null], "iteration_error": 1, "count": 2, "stdev": 1, "min": 11, "max": 13,
		"percentiles": {"50.0": 12}, "raw_data": [[11, 13]]}`
	for _, tc := range []struct{ name, doc, err string }{
		{"ok", run("ok", good), ""},
		{"one fork: no error", run("ok", oneFork), ""},
		{"no primary (no time per op)", run("ok", "null"), ""},
		{"failed with nulls", run("failed", strings.ReplaceAll(good, "12", "null")), ""},
		{"skipped with nulls", run("skipped", `{"score": null, "count": 0, "min": null}`), ""},
		{"null score", run("ok", strings.Replace(good, `"score": 12`, `"score": null`, 1)), `runs[0] (a:avgt): primary_metric.score is null in a run whose status is ok`},
		{"null error", run("ok", strings.Replace(good, `"score_error": 3`, `"score_error": null`, 1)), `primary_metric.score_error is null`},
		{"null stdev", run("ok", strings.Replace(good, `"stdev": 1.5`, `"stdev": null`, 1)), `primary_metric.stdev is null`},
		{"null max", run("ok", strings.Replace(good, `"max": 14`, `"max": null`, 1)), `primary_metric.max is null`},
		{"null percentile", run("ok", strings.Replace(good, `"100.0": 14`, `"100.0": null`, 1)), `primary_metric.percentiles["100.0"] is null`},
		{"null interval", run("ok", strings.Replace(good, `[9, 15]`, `[9, null]`, 1)), `primary_metric.score_confidence[1] is null`},
		{"null raw value", run("ok", strings.Replace(good, `[13, 14]`, `[13, null]`, 1)), `primary_metric.raw_data[1][1] is null`},
		{"no values", run("ok", strings.Replace(good, `"count": 4`, `"count": 0`, 1)), `primary_metric.count is 0`},
		{"unknown status", run("great", good), `status "great", want "ok", "failed" or "skipped"`},
	} {
		_, err := Read(strings.NewReader(tc.doc))
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: Read error %v, want %q", tc.name, err, tc.err)
		}
	}
}

func TestFloatJSON(t *testing.T) {
	for _, tc := range []struct {
		f    Float
		json string
	}{
		{1.5, "1.5"}, {0, "0"}, {1e21, "1e+21"}, {Float(math.NaN()), "null"},
		{Float(math.Inf(1)), "null"}, {Float(math.Inf(-1)), "null"},
	} {
		b, err := json.Marshal(tc.f)
		if err != nil || string(b) != tc.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tc.f, b, err, tc.json)
		}
	}
	var fs []Float
	if err := json.Unmarshal([]byte(`[null, 2.5]`), &fs); err != nil || !math.IsNaN(float64(fs[0])) || fs[1] != 2.5 {
		t.Errorf("Unmarshal([null, 2.5]) = %v, %v; want [NaN 2.5]", fs, err)
	}
	var b Bin
	if err := json.Unmarshal([]byte(`[0.5, 3]`), &b); err != nil || b != (Bin{0.5, 3}) {
		t.Errorf("Unmarshal bin = %+v, %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"value": 0.5}`), &b); err == nil {
		t.Errorf("a bin object unmarshals")
	}
}

func TestPercentilesJSONOrder(t *testing.T) {
	p := Percentiles{"100.0": 4, "50.0": 2, "99.9": NaN(), "0.0": 1, "9.5": 1.5}
	b, err := json.Marshal(p)
	if want := `{"0.0":1,"9.5":1.5,"50.0":2,"99.9":null,"100.0":4}`; err != nil || string(b) != want {
		t.Errorf("Marshal = %s, %v; want %s", b, err, want)
	}
	var back Percentiles
	if err := json.Unmarshal(b, &back); err != nil || len(back) != 5 || back["99.9"].Valid() {
		t.Errorf("Unmarshal = %v, %v", back, err)
	}
}

// A version 1 report is read as version 2: its score_error was JMH's
// iteration error, and the error that counts forks is computed from its
// raw data.
func TestReadUpgradesVersion1(t *testing.T) {
	doc := `{"schema_version": 1, ` + otherKeys + `"runs": [{"key": "a#avgt", "mode": "avgt", "status": "ok", "primary_metric": {
		"score": 12, "score_error": 3.965719, "score_unit": "ns/op", "count": 6, "min": 10, "max": 14,
		"raw_data": [[10, 11, 12], [12, 13, 14]]},
		"secondary_metrics": {"allocs/op": {"score": 3, "score_error": 636.619, "raw_data": [[2], [4]]}}}]}`
	rep, err := Read(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Runs[0].Primary
	if rep.SchemaVersion != SchemaVersion || m.IterationError != 3.965719 || !near(float64(m.ScoreError), 636.619, 5e-4) ||
		!near(float64(m.ScoreConfidence[1]), 12+636.619, 5e-4) || m.Variance == nil || m.Variance.Forks != 2 {
		t.Errorf("upgraded: version %d, primary %+v, variance %+v; want version %d, iteration error 3.965719, error 636.619 over 2 forks",
			rep.SchemaVersion, m, m.Variance, SchemaVersion)
	}
	if a := rep.Runs[0].SecondaryMetrics["allocs/op"]; a.IterationError != 636.619 || a.Variance == nil || !cmp.Equal(a.Variance.ForkMeans, []Float{2, 4}) {
		t.Errorf("upgraded secondary metric = %+v", a)
	}
}
