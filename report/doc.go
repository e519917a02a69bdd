// Package report turns what the forks measured into numbers a reader can
// trust: the result model (Report), Build and its statistics, Read and
// Write, Merge and Pool. Its opinions are JMH's but one:
//
//   - All arithmetic on iterations is in one place, IterationScore, in
//     float64; the score is the mean over every measurement iteration of
//     every measured fork.
//   - Forks, not iterations, are the experimental unit: iterations of one
//     process share its layout and core, so the error is the 99.9 %
//     Student-t half-width over the fork means (report/stats;
//     docs/statistics.md); JMH's is kept as IterationError.
//   - A run with a failed fork has no numbers: a number from the forks
//     that survived would be wrong. Numbers that do not exist are null in
//     JSON (Float), never NaN.
//
// Read takes its input as hostile (checkRun). Rendering, probing the
// machine and the run log live elsewhere; the helpers exported for them
// are the model's arithmetic, so every reader computes a number alike.
package report
