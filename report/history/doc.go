// Package history turns the batches a results directory keeps into one
// time series per run key, finds where each changed level, and says
// whether the newest change is a regression (docs/statistics.md).
//
//   - Change points: E-Divisive means (Matteson and James 2014) proposes
//     the split where the energy distance is largest, and a Student t-test
//     decides it, in Hunter's windowed split-then-merge passes (Fleming et
//     al., ICPE 2023): deterministic, sound with a new job's few points,
//     and without PELT's per-series penalty. A level has at least three
//     points, but the newest may be shorter, so that last night's
//     regression is reported at once.
//   - The t-test's variance never falls below the points' own variance,
//     counted over forks (Point.OwnVariance): nights that agree by chance
//     cannot make a change look surer than each measurement could tell.
//   - A point's level is the median of its fork means, not its score (their
//     mean): a CPU hog slows some forks of a night far more than others,
//     and moves the mean with each, the median only when most are hit.
//   - A series without change points is steady only when it could have
//     shown one (Series.Detectable, the smallest change its test could
//     tell apart); above MinChange it is too noisy to tell
//     (Series.TooNoisy) and says so with that size.
//   - A series has regressed when its newest change is a regression the
//     newest point does not revert. Defaults: MinChange 5 %, P 0.001.
package history
