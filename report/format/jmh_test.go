package format

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xeipuuv/gojsonschema"

	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/reporttest"
)

// validateJMH validates doc against testdata/jmh.schema.json, our JSON
// Schema of the JMH output that tools built for JMH read.
func validateJMH(t *testing.T, doc []byte) {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("testdata", "jmh.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewBytesLoader(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors() {
		t.Errorf("JMH JSON: %s", e)
	}
}

func TestJMHValidatesAgainstJMHSchema(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	for name, rep := range map[string]*report.Report{"fixture": report.Build(p, forks, env), "no forks": report.Build(p, nil, env)} {
		t.Run(name, func(t *testing.T) {
			out := render(t, "jmh", rep)
			validateJMH(t, []byte(out))
			for _, bad := range []string{"null", "Infinity", `"INF"`} {
				if strings.Contains(out, bad) {
					t.Errorf(`JMH JSON contains %s: numbers that do not exist must be JMH's "NaN", "+INF" or "-INF"`, bad)
				}
			}
		})
	}
}

// TestJMHSchemaRejects makes sure the JMH schema is strict enough to
// matter: each mutation of a valid document must fail it.
func TestJMHSchemaRejects(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	out := render(t, "jmh", report.Build(p, forks, env))
	for name, mutate := range map[string]func(r map[string]any){
		"no primaryMetric":  func(r map[string]any) { delete(r, "primaryMetric") },
		"mode long form":    func(r map[string]any) { r["mode"] = "AverageTime" },
		"time without unit": func(r map[string]any) { r["warmupTime"] = "1" },
		"numeric param":     func(r map[string]any) { r["params"] = map[string]any{"size": 10} },
		"both raw data": func(r map[string]any) {
			r["primaryMetric"].(map[string]any)["rawDataHistogram"] = []any{}
		},
		"missing percentile": func(r map[string]any) {
			delete(r["primaryMetric"].(map[string]any)["scorePercentiles"].(map[string]any), "99.9999")
		},
	} {
		var doc []map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		mutate(doc[0])
		b, _ := json.Marshal(doc)
		schema, _ := os.ReadFile(filepath.Join("testdata", "jmh.schema.json"))
		res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewBytesLoader(b))
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid() {
			t.Errorf("%s: the JMH schema accepts it", name)
		}
	}
}

// TestJMHShape reads the JMH JSON the way JMH's readers do and checks
// the mapping: failed runs left out, sample mode's histogram, the
// percentiles JMH has and the report does not.
func TestJMHShape(t *testing.T) {
	p, forks, env := reporttest.Fixture()
	var doc []struct {
		Benchmark     string            `json:"benchmark"`
		Mode          string            `json:"mode"`
		Forks         int               `json:"forks"`
		WarmupTime    string            `json:"warmupTime"`
		Params        map[string]string `json:"params"`
		PrimaryMetric struct {
			Score            *float64            `json:"score"`
			ScoreError       any                 `json:"scoreError"`
			ScoreConfidence  [2]any              `json:"scoreConfidence"`
			ScorePercentiles map[string]*float64 `json:"scorePercentiles"`
			ScoreUnit        string              `json:"scoreUnit"`
			RawData          [][]float64         `json:"rawData"`
			RawDataHistogram [][][][2]float64    `json:"rawDataHistogram"`
		} `json:"primaryMetric"`
		SecondaryMetrics map[string]json.RawMessage `json:"secondaryMetrics"`
	}
	if err := json.Unmarshal([]byte(render(t, "jmh", report.Build(p, forks, env))), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range doc {
		got = append(got, r.Benchmark+" "+r.Mode+" "+r.PrimaryMetric.ScoreUnit)
	}
	if diff := cmp.Diff([]string{"counter.Inc1 avgt ns/op", "counter.Inc1 thrpt ops/us", "log.Classic sample us/op"}, got); diff != "" {
		t.Fatalf("runs (-want +got), the failed sqrt.Crash left out:\n%s", diff)
	}
	avgt, thrpt, sample := doc[0], doc[1], doc[2]
	if avgt.Params["size"] != "10" || avgt.Forks != 2 || avgt.WarmupTime != "1 s" || *avgt.PrimaryMetric.Score != 12 {
		t.Errorf("avgt = %+v", avgt)
	}
	if diff := cmp.Diff([][]float64{{10, 11, 12}, {12, 13, 14}}, avgt.PrimaryMetric.RawData); diff != "" {
		t.Errorf("avgt rawData (-want +got):\n%s", diff)
	}
	// As JMH writes a number that does not exist: "NaN", never null.
	if m := thrpt.PrimaryMetric; m.ScoreError != "NaN" || m.ScoreConfidence != [2]any{"NaN", "NaN"} {
		t.Errorf("thrpt with one iteration: scoreError %#v, scoreConfidence %#v; want \"NaN\" as JMH writes it", m.ScoreError, m.ScoreConfidence)
	}
	if _, ok := avgt.PrimaryMetric.ScoreError.(float64); !ok {
		t.Errorf("avgt: scoreError %#v, want a number", avgt.PrimaryMetric.ScoreError)
	}
	if sample.Params != nil || sample.PrimaryMetric.RawData != nil || len(sample.PrimaryMetric.RawDataHistogram) != 1 ||
		len(sample.PrimaryMetric.RawDataHistogram[0]) != 1 {
		t.Fatalf("sample: params %v, rawData %v, rawDataHistogram of %d forks; want no params, the merged histogram only",
			sample.Params, sample.PrimaryMetric.RawData, len(sample.PrimaryMetric.RawDataHistogram))
	}
	var n float64
	for _, bin := range sample.PrimaryMetric.RawDataHistogram[0][0] {
		n += bin[1]
	}
	if n != 1000 {
		t.Errorf("sample histogram holds %v samples, want 1000", n)
	}
	ps := sample.PrimaryMetric.ScorePercentiles
	if len(ps) != 10 || *ps["100.0"] != 1 || *ps["99.9999"] > 1 || *ps["99.999"] < *ps["99.99"] {
		t.Errorf("sample percentiles = %v, want JMH's ten, monotone, up to the max 1 us", ps)
	}
	p50, ok := sample.SecondaryMetrics["p0.50"]
	if !ok {
		t.Fatalf("sample secondary metrics %v lack p0.50", sample.SecondaryMetrics)
	}
	// A percentile is one number, with no error, as JMH writes it.
	var m struct {
		ScoreError      any    `json:"scoreError"`
		ScoreConfidence [2]any `json:"scoreConfidence"`
	}
	if err := json.Unmarshal(p50, &m); err != nil || m.ScoreError != "NaN" || m.ScoreConfidence != [2]any{"NaN", "NaN"} {
		t.Errorf("p0.50: scoreError %#v, scoreConfidence %#v (%v); want \"NaN\" as JMH writes it", m.ScoreError, m.ScoreConfidence, err)
	}
}

// TestJMHNumbers: numbers that do not exist are spelled as JMH's
// JSONResultFormat spells them, finite ones as numbers.
func TestJMHNumbers(t *testing.T) {
	for v, want := range map[float64]string{math.NaN(): `"NaN"`, math.Inf(1): `"+INF"`, math.Inf(-1): `"-INF"`, 1.5: "1.5", 0: "0"} {
		if got, err := json.Marshal(jmhNum(v)); err != nil || string(got) != want {
			t.Errorf("jmhNum(%v) = %s, %v; want %s", v, got, err, want)
		}
	}
}
