// Package report turns what the forks measured into numbers a reader can
// trust: the result model (Report), Build and its statistics, Read and
// Write, Merge.
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
// The Report is plain data, written by Write and read back by Read as
// JSON: the lossless format, described by schemas/result.schema.json.
// Merge combines reports of disjoint runs, and proves the shards of one
// plan complete (shards.go); package report/compare compares two.
//
// What the package does not do: render (internal/format and, for HTML,
// internal/format/html read the Report), probe the machine
// (internal/host fills in Env and its EnvCheck, whose diagnostics are
// judged here, EnvCheck.Diagnose) or narrate a running batch
// (internal/runlog, which shows each run's result as BuildRun computes
// it). The few helpers exported for them — Unit, UnitNs, Percentile,
// Quantiles, IsQuantileName, Histogram.Quantile, BuildRun — are the
// model's own arithmetic, kept here so that every reader of a report
// computes a number the same way.
package report
