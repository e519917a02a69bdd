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
	"github.com/benchspec/benchspec/spec"
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

// jmhGroupReport is a report holding group "rw" (write on 1 thread, read
// on 3, JMH's @GroupThreads) in thrpt and in sample mode, each row
// followed by its members' rows as report.Build orders them, then a
// plain run that is no member; the numbers echo the reference's.
func jmhGroupReport() *report.Report {
	metric := func(unit string, raw ...float64) *report.Metric {
		m := &report.Metric{Score: report.Float((raw[0] + raw[1]) / 2), IterationError: report.NaN(), ScoreUnit: unit, RawData: [][]report.Float{{}}}
		for _, v := range raw {
			m.RawData[0] = append(m.RawData[0], report.Float(v))
		}
		return m
	}
	run := func(mode spec.Mode, bench, member string, threads int, m *report.Metric) report.Run {
		s := reporttest.Settings("us", 1, 0, 1, 2)
		s.Modes, s.Threads = []spec.Mode{mode}, threads
		r := report.Run{Key: bench + ":" + mode.String(), Benchmark: bench, Mode: mode, Threads: threads, Settings: s,
			Group: "rw", Member: member, Status: report.StatusOK, Primary: m, SecondaryMetrics: map[string]report.Metric{}}
		if mode.Samples() { // each its own percentiles, as report.Build makes them
			for i, q := range report.Quantiles() {
				r.SecondaryMetrics[q.Name] = report.Metric{Score: report.Float(i), ScoreError: report.NaN(), IterationError: report.NaN(),
					ScoreUnit: m.ScoreUnit, RawData: [][]report.Float{{report.Float(i)}}}
			}
		}
		return r
	}
	sampled := func(m *report.Metric) *report.Metric {
		m.Histogram = &report.Histogram{Count: 3, Bins: []report.Bin{{Value: 0.05, Count: 2}, {Value: 2, Count: 1}}}
		return m
	}
	rep := &report.Report{Env: report.Env{ToolVersion: "v0.1.0", GoVersion: "go1.26.8"}}
	rep.Runs = []report.Run{
		run(spec.ModeThroughput, "rw", "", 4, metric("ops/us", 44.5, 66.5)),
		run(spec.ModeThroughput, "rw:write", "write", 1, metric("ops/us", 25, 31)),
		run(spec.ModeThroughput, "rw:read", "read", 3, metric("ops/us", 31.9, 23.1)),
		run(spec.ModeSampleTime, "rw", "", 4, sampled(metric("us/op", 1.5, 2.6))),
		run(spec.ModeSampleTime, "rw:write", "write", 1, sampled(metric("us/op", 0.05, 0.06))),
		run(spec.ModeSampleTime, "rw:read", "read", 3, sampled(metric("us/op", 2.1, 3.6))),
		run(spec.ModeAverageTime, "counter.Inc1", "", 1, metric("us/op", 1, 2)),
	}
	rep.Runs[6].Group = ""
	return rep
}

// jmhKeys returns the key paths of a JSON value: every object key at
// every level, array elements merged under "[]".
func jmhKeys(prefix string, v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			into[prefix+"/"+k] = true
			jmhKeys(prefix+"/"+k, e, into)
		}
	case []any:
		for _, e := range v {
			jmhKeys(prefix+"[]", e, into)
		}
	}
}

// TestJMHGroupMatchesJMH renders a group and compares it, key for key at
// every level, with what JMH 1.37 itself wrote for a @Group of the same
// members. testdata/jmh-group-reference.json is that output: JMH 1.37
// (jmh-core and jmh-generator-annprocess built from the 1.37 tag with
// javac), benchmark rw.RW with @State(Scope.Group) holding a
// ReentrantReadWriteLock and a counter, @Group("rw") @GroupThreads(1)
// write() and @GroupThreads(3) read(), run as
//
//	java -cp ... org.openjdk.jmh.Main rw.RW.rw -f 1 -wi 1 -w 100ms -i 2 -r 100ms \
//	    -bm thrpt,avgt,sample -rf json -rff jmh-result.json
//
// with sample mode's rawDataHistogram cut to 5 bins per iteration.
func TestJMHGroupMatchesJMH(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("testdata", "jmh-group-reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	validateJMH(t, ref)
	out := render(t, "jmh", jmhGroupReport())
	validateJMH(t, []byte(out))
	reporttest.Golden(t, "jmh-group.golden", out)
	var want, got []map[string]any
	if err := json.Unmarshal(ref, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d entries, want 3: rw thrpt, rw sample, counter.Inc1 (member rows are no entries)", len(got))
	}
	byMode := map[any]map[string]any{}
	for _, e := range want {
		byMode[e["mode"]] = e
	}
	for _, e := range got[:2] {
		ref := byMode[e["mode"]]
		w, g := map[string]bool{}, map[string]bool{}
		jmhKeys("", ref, w)
		jmhKeys("", e, g)
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s: key paths (-JMH +ours):\n%s", e["mode"], diff)
		}
		if e["threads"] != 4.0 || e["benchmark"] != "rw" {
			t.Errorf("%s: benchmark %v on %v threads, want rw on 4 (1 write + 3 read)", e["mode"], e["benchmark"], e["threads"])
		}
	}
	thrpt := got[0]
	sec := thrpt["secondaryMetrics"].(map[string]any)
	if s := thrpt["primaryMetric"].(map[string]any)["score"]; s != 55.5 {
		t.Errorf("group score %v, want the group row's 55.5", s)
	}
	if w := sec["write"].(map[string]any); w["score"] != 28.0 || w["scoreUnit"] != "ops/us" {
		t.Errorf("secondaryMetrics.write = %v, want the write row's 28 ops/us", w)
	}
	if r := sec["read"].(map[string]any)["rawData"]; !cmp.Equal(r, []any{[]any{31.9, 23.1}}) {
		t.Errorf("secondaryMetrics.read.rawData = %v, want the read row's iterations", r)
	}
	if _, ok := got[2]["secondaryMetrics"].(map[string]any)["read"]; ok {
		t.Error("the plain run after the group took a member")
	}
}

// TestJMHSchemaRejectsMemberHistogram: a secondary metric, a group's
// member included, holds rawData as JMH writes it, never a histogram.
func TestJMHSchemaRejectsMemberHistogram(t *testing.T) {
	var doc []map[string]any
	if err := json.Unmarshal([]byte(render(t, "jmh", jmhGroupReport())), &doc); err != nil {
		t.Fatal(err)
	}
	read := doc[1]["secondaryMetrics"].(map[string]any)["read"].(map[string]any)
	read["rawDataHistogram"] = []any{}
	delete(read, "rawData")
	b, _ := json.Marshal(doc)
	schema, _ := os.ReadFile(filepath.Join("testdata", "jmh.schema.json"))
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewBytesLoader(b))
	if err != nil || res.Valid() {
		t.Errorf("the JMH schema accepts a member with a histogram (%v)", err)
	}
}
