package format

import (
	"github.com/benchspec/benchspec/report"
	"github.com/benchspec/benchspec/report/stats"

	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"time"
)

// JMHVersion is the JMH release whose `-rf json` output JMH
// reproduces; it is what the jmhVersion field says.
const JMHVersion = "1.37"

// jmhPercentiles are the keys of JMH's scorePercentiles.
var jmhPercentiles = []struct {
	key string
	q   float64
}{
	{"0.0", 0}, {"50.0", 0.5}, {"90.0", 0.9}, {"95.0", 0.95}, {"99.0", 0.99}, {"99.9", 0.999},
	{"99.99", 0.9999}, {"99.999", 0.99999}, {"99.9999", 0.999999}, {"100.0", 1},
}

// JMH writes JMH's own JSON result format (`-rf json`, as JMH 1.37 writes
// it), so that tools made for JMH read benchspec results: JMH Visualizer,
// github-action-benchmark (`tool: jmh`), Bencher's java_jmh adapter.
// Failed runs are left out, as JMH leaves out failed benchmarks. The
// names JMH Visualizer groups by are the registered names (class "log",
// method "Classic"); the JVM fields describe the Go side (jvm
// "benchspec", jvmArgs the fork's environment, vmName "Go"). scoreError
// and scoreConfidence are JMH's own, over all iterations as if
// independent (the report's iteration_error), because that is what tools
// made for JMH read them as; sample mode's rawDataHistogram is the merged
// histogram as one fork, the only distribution the report keeps. A number
// that does not exist (a single iteration's error, sample mode's
// percentile secondaries' error) is written as JMH writes it, the string
// "NaN" ("+INF", "-INF"), not the report's null: readers made for JMH
// meet those in JMH's own output, while null reads as 0 in some.
//
// A group is one entry, as JMH writes a @Group: threads and primaryMetric
// are the group's, and secondaryMetrics hold each member under its name
// ("read") and the member's own secondaries under "member:key"
// ("read:p0.50"), beside the group's; member rows are no entries of
// their own. testdata/jmh-group-reference.json is JMH's own output for
// such a group.
type JMH struct{}

// jmhNum is a number as JMH's JSONResultFormat writes it.
type jmhNum float64

func (v jmhNum) MarshalJSON() ([]byte, error) {
	switch f := float64(v); {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"+INF"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-INF"`), nil
	}
	return report.Float(v).MarshalJSON()
}

// jmhPercentileMap is scorePercentiles in JMH's order ("0.0" … "100.0").
type jmhPercentileMap map[string]jmhNum

func (m jmhPercentileMap) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for i, p := range jmhPercentiles {
		if i > 0 {
			out = append(out, ',')
		}
		v, _ := m[p.key].MarshalJSON()
		out = append(append(append(out, '"'), p.key...), append([]byte(`":`), v...)...)
	}
	return append(out, '}'), nil
}

type jmhResult struct {
	JMHVersion            string               `json:"jmhVersion"`
	Benchmark             string               `json:"benchmark"`
	Mode                  string               `json:"mode"`
	Threads               int                  `json:"threads"`
	Forks                 int                  `json:"forks"`
	JVM                   string               `json:"jvm"`
	JVMArgs               []string             `json:"jvmArgs"`
	JDKVersion            string               `json:"jdkVersion"`
	VMName                string               `json:"vmName"`
	VMVersion             string               `json:"vmVersion"`
	WarmupIterations      int                  `json:"warmupIterations"`
	WarmupTime            string               `json:"warmupTime"`
	WarmupBatchSize       int                  `json:"warmupBatchSize"`
	MeasurementIterations int                  `json:"measurementIterations"`
	MeasurementTime       string               `json:"measurementTime"`
	MeasurementBatchSize  int                  `json:"measurementBatchSize"`
	Params                map[string]string    `json:"params,omitempty"`
	PrimaryMetric         jmhMetric            `json:"primaryMetric"`
	SecondaryMetrics      map[string]jmhMetric `json:"secondaryMetrics"`
}

type jmhMetric struct {
	Score            jmhNum           `json:"score"`
	ScoreError       jmhNum           `json:"scoreError"`
	ScoreConfidence  [2]jmhNum        `json:"scoreConfidence"`
	ScorePercentiles jmhPercentileMap `json:"scorePercentiles"`
	ScoreUnit        string           `json:"scoreUnit"`
	RawData          [][]jmhNum       `json:"rawData,omitempty"`
	RawDataHistogram [][][]report.Bin `json:"rawDataHistogram,omitempty"`
}

// Render writes r in JMH's JSON format to w.
func (JMH) Render(w io.Writer, r *report.Report) error {
	out := []jmhResult{}
	for i := range r.Runs {
		run := &r.Runs[i]
		if run.NoScore() || run.Member != "" {
			continue
		}
		res := jmhResultOf(&r.Env, run)
		// A group's member rows follow its row (report.Build's order),
		// each keyed as its group's row says (MemberKey).
		for j := i + 1; run.Group != "" && j < len(r.Runs); j++ {
			m := &r.Runs[j]
			if m.Member == "" || m.Key != run.MemberKey(m.Member) {
				break
			}
			addJMHMember(&res, m)
		}
		out = append(out, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing JMH JSON: %w", err)
	}
	return nil
}

func jmhResultOf(env *report.Env, run *report.Run) jmhResult {
	s := &run.Settings
	res := jmhResult{
		JMHVersion:            JMHVersion,
		Benchmark:             run.Benchmark,
		Mode:                  run.Mode.String(),
		Threads:               run.Threads,
		Forks:                 s.Forks,
		JVM:                   "benchspec " + env.ToolVersion,
		JVMArgs:               []string{},
		JDKVersion:            env.GoVersion,
		VMName:                "Go",
		VMVersion:             env.GoVersion,
		WarmupIterations:      s.Warmup.Iterations,
		WarmupTime:            jmhTime(s.Warmup.Time),
		WarmupBatchSize:       s.Warmup.BatchSize,
		MeasurementIterations: s.Measurement.Iterations,
		MeasurementTime:       jmhTime(s.Measurement.Time),
		MeasurementBatchSize:  s.Measurement.BatchSize,
		PrimaryMetric:         jmhMetricOf(run.Primary),
		SecondaryMetrics:      make(map[string]jmhMetric, len(run.SecondaryMetrics)),
	}
	for _, k := range sortedKeys(s.Env) {
		res.JVMArgs = append(res.JVMArgs, k+"="+s.Env[k])
	}
	if len(run.Params) > 0 {
		res.Params = run.Params
	}
	if run.Mode.Samples() && run.Primary.Histogram != nil {
		res.PrimaryMetric.RawData = nil
		res.PrimaryMetric.RawDataHistogram = [][][]report.Bin{{run.Primary.Histogram.Bins}}
	}
	for name, m := range run.SecondaryMetrics {
		res.SecondaryMetrics[name] = jmhMetricOf(&m)
	}
	return res
}

// addJMHMember adds member m of a group to the group's entry res as JMH
// labels a member's results: its primary under its name, its secondaries
// under "name:key". A member's sample histogram is not written: JMH
// writes rawData, the iteration scores, for every secondary.
func addJMHMember(res *jmhResult, m *report.Run) {
	if m.Primary == nil {
		return
	}
	res.SecondaryMetrics[m.Member] = jmhMetricOf(m.Primary)
	for name, sm := range m.SecondaryMetrics {
		res.SecondaryMetrics[m.Member+":"+name] = jmhMetricOf(&sm)
	}
}

// jmhMetricOf converts a metric, adding JMH's percentiles that the report
// does not keep (99.999 and 99.9999).
func jmhMetricOf(m *report.Metric) jmhMetric {
	out := jmhMetric{
		Score:            jmhNum(m.Score),
		ScoreError:       jmhNum(m.IterationError), // JMH's scoreError is over iterations
		ScoreConfidence:  [2]jmhNum{jmhNum(m.Score - m.IterationError), jmhNum(m.Score + m.IterationError)},
		ScorePercentiles: make(jmhPercentileMap, len(jmhPercentiles)),
		ScoreUnit:        m.ScoreUnit,
		RawData:          make([][]jmhNum, len(m.RawData)),
	}
	for i, fork := range m.RawData {
		out.RawData[i] = make([]jmhNum, len(fork))
		for j, v := range fork {
			out.RawData[i][j] = jmhNum(v)
		}
	}
	quantile := rawQuantile(m.RawData)
	if m.Histogram != nil {
		quantile = func(q float64) report.Float { return m.Histogram.Quantile(q) }
	}
	for _, p := range jmhPercentiles {
		v, ok := m.Percentiles[p.key]
		if !ok {
			v = quantile(p.q)
		}
		out.ScorePercentiles[p.key] = jmhNum(v)
	}
	return out
}

// rawQuantile returns the quantile function of the values in raw, by
// JMH's estimator; report.NaN when a value is not finite, as in metricOf.
func rawQuantile(raw [][]report.Float) func(q float64) report.Float {
	var all []float64
	finite := true
	for _, fork := range raw {
		for _, v := range fork {
			all = append(all, float64(v))
			finite = finite && v.Valid()
		}
	}
	sort.Float64s(all)
	return func(q float64) report.Float {
		if !finite {
			return report.NaN()
		}
		return report.Float(stats.Percentile(all, 100*q))
	}
}

// jmhTime is an iteration time as JMH writes it: "1 s", and "0 s" for
// none.
func jmhTime(d time.Duration) string {
	if d == 0 {
		return "0 s"
	}
	return Duration(d)
}
