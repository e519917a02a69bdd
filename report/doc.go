// Package report turns what the forks measured into numbers a reader can
// trust: the result model (Report), Build and its statistics, Read and
// Write, Merge and Pool.
//
// The package is opinionated, and its opinions are JMH's:
//
//   - All arithmetic on iterations lives in one place, IterationScore, and
//     is done in float64: thrpt is ops per time unit, avgt, ss and sample
//     are time per op. The run log and Build both use it.
//   - A run's score is the mean over every measurement iteration of every
//     measured fork; Cnt is forks × iterations (sample mode: the number of
//     samples).
//   - Forks are the experimental unit, and here the package parts from
//     JMH. A fork's iterations share its process's draw of memory layout,
//     code placement and core, so they are not independent samples of
//     the score; when processes differ, JMH's error over all iterations
//     is far too narrow. The error is the 99.9 % Student-t half-width
//     over the fork means, t(0.9995, forks−1) · s/√forks, s their
//     standard deviation: the interval of the two-level model of
//     Kalibera and Jones ("Rigorous Benchmarking in Reasonable Time",
//     ISMM 2013), exact for a balanced design with normal fork means,
//     and deterministic, unlike their alternative, a hierarchical
//     bootstrap, which is also unstable with the few forks a benchmark
//     can afford (package internal/forkstat says more). With fewer than
//     2 forks there is no error: it is NaN. With 2 it is wide
//     (t = 636.6), with 3 less so (31.6): that is what so few processes
//     can say about the next one. Each metric carries the model
//     (Variance): the fork means, the within-fork and between-fork
//     variance components, the between-fork share, and the forks that
//     would bring the error within a stated relative width (the spec's
//     precision, else DefaultTargetError). JMH's error over iterations is
//     kept as IterationError, and the JMH renderer writes it as
//     scoreError.
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
// Read takes its input as hostile: it refuses data after the report, and
// an ok run whose primary metric has null (not finite) where Build always
// writes a number (checkRun), naming the run and the field.
// Merge combines reports of disjoint runs, and proves the shards of one
// plan complete (shards.go); Pool pools the forks of one run from several
// batches of one build, rebuilding the run from all of them by Build's
// own code (buildRun) from what the report keeps of each fork (pool.go);
// package report/compare compares two.
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
