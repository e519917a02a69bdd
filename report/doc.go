// Package report turns what the forks measured into numbers a reader can
// trust, and renders them.
//
// The package is opinionated, and its opinions are JMH's:
//
//   - All arithmetic on iterations lives in one place, IterationScore, and
//     is done in float64: thrpt is ops per time unit, avgt, ss and sample
//     are time per op. The run log and Build both use it.
//   - A run's score is the mean over every measurement iteration of every
//     measured fork; Cnt is forks × iterations (sample mode: the number of
//     samples); the error is the 99.9 % Student-t half-width
//     t(0.9995, n-1) · s/√n. With n ≤ 1 there is no error: it is NaN.
//   - Warmup forks are kept in the report, marked, and stay out of every
//     statistic.
//   - A run with a failed fork has status "failed" and no numbers at all:
//     a number computed from the forks that happened to survive would be a
//     wrong number.
//   - Numbers that do not exist are null in JSON, never NaN, Infinity or a
//     string. Every float that reaches JSON is a Float, whose MarshalJSON
//     writes null for NaN and ±Inf and whose UnmarshalJSON reads null back
//     as NaN.
//
// Percentiles are keyed the way JMH's JSON keys them, by percent with at
// least one decimal ("0.0", "50.0", "90.0", "95.0", "99.0", "99.9",
// "99.99", "100.0"). Percentiles of iteration scores use JMH's estimator
// (Commons Math's legacy definition, position p·(n+1)); sample mode's
// come from the merged histogram (nearest rank, within hist.Alpha) and
// also appear as the secondary metrics "p0.00" … "p1.00", like JMH's
// "·p0.50".
//
// The Report is plain data. Renderers (NewRenderer) read it and write a
// format; the JSON one is the lossless one, described by
// schemas/result.schema.json and read back by Read. The others, each
// documented on its type: text (JMH's table), jmh (JMH's -rf json, for the
// tools made for JMH), gobench (the Go benchmark format, for benchstat),
// csv, markdown (a pull-request comment) and html (one self-contained
// page with charts). In every one of them a number that does not exist is
// absent — null in JSON, an empty CSV field, no result line — never NaN
// or a string; failed runs are listed with their reason, except in jmh
// and gobench, whose readers expect only results (JMH leaves failed
// benchmarks out too). Merge combines reports of disjoint runs, and
// proves the shards of one plan complete (shards.go); package
// report/compare compares two.
package report
