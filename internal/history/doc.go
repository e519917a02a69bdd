// Package history turns the batches a results directory keeps (run
// --results-dir) into one time series per run, finds where each series
// changed level, and says whether the newest change is a regression.
//
// The package is opinionated:
//
//   - A series is a suite's run key (benchmark, params, threads and
//     mode); its points are the run's primary scores, one per batch in
//     which the run succeeded, in the order the batches started. Runs
//     that a batch's plan lacked, and runs that failed, leave gaps; a
//     run added to the specs later starts late. Shards of one plan that
//     ran one after the other make one batch. Scores are converted to the
//     unit of the newest point.
//   - Change points are found by E-Divisive means (Matteson and James,
//     2014, as MongoDB's CI uses it) with the significance test of Hunter
//     (Fleming et al., ICPE 2023; Apache Otava): E-Divisive proposes
//     the split of a stretch of points where the energy distance between
//     the points before and after is largest, and a two-sample Student
//     t-test decides whether it is real, instead of E-Divisive's random
//     permutations. So the result is deterministic — the same reports
//     give the same change points, run after run — and it holds up with
//     the few points a new nightly job has. Splitting runs in windows of
//     50 points with the significance relaxed tenfold, then a merge pass
//     tests each proposed change against its neighbouring changes and
//     drops the weakest until every change left is significant (p ≤ P)
//     and large enough (|change| ≥ MinChange), as Hunter does: windows
//     keep a long history from hiding a small recent change, and the
//     merge keeps two nearby changes apart. One rule is added: a level
//     between two changes, or before the first, has at least three
//     points, since a test made at every point of a long series finds
//     runs of one or two outliers by chance; only the newest level may
//     be shorter, so that a regression on the latest night is reported
//     at once. PELT would need a penalty per series and a noise model;
//     E-Divisive needs neither.
//   - A point's level is the median of its fork means, not its score (their
//     mean): on a busy machine a CPU hog slows some forks of a night far
//     more than others, and every such fork moves the mean, while the
//     median moves only when most forks are hit. Its own variance is
//     robust alike: the fork means' MAD, scaled to a standard deviation,
//     squared, times π/2 over the forks (a median's variance). With two
//     forks both are the mean's; without fork means, the score's. In
//     simulated histories beside a hog (a quarter of the forks 1.3–2.5×
//     slower), a 2× step after 4 nights of 20 forks is found by the
//     sixth night in 190 of 200 on medians, 64 of 200 on means.
//   - Each point's own spread counts, not only its mean: the t-test's
//     pooled variance is the spread between the points either side of
//     the change, but never less than the mean of the points' own
//     variance of their score. The spread between nights is what a
//     change must beat; each night's own spread is a floor under it, so
//     that a few nights that agree by chance, or scores that repeat
//     exactly, do not make a change look more certain than each
//     measurement could tell. A point's own variance counts forks, as
//     its score's error does (package report): iterations of one process
//     share its layout and start-up and are not independent, so the
//     variance of a night's score is the variance of its fork means over
//     the number of forks (Point.OwnVariance). Only a point of one fork,
//     which cannot show a spread of means, falls back on its iteration
//     scores' stdev² / count, a lower bound. The floor is the median of
//     the points' own variances (the typical night's, which one noisy
//     night does not raise for all), and each side's mean is never surer
//     than its own points' variances say: a newest night alone, its forks
//     scattered, carries its own spread into the test.
//   - A series without change points is steady only when it could have
//     shown one: Series.Detectable is the smallest change the test could
//     tell apart between its two halves; above MinChange the series is
//     too noisy to tell (Series.TooNoisy), and says so with that size,
//     instead of "steady".
//   - A change point's magnitude is the relative change of the mean
//     level, (after − before) / before, over the points back to the
//     previous change and up to the next, with its confidence interval
//     at level 1 − P (99.9 % by default, as the scores' error). The unit
//     says which way is worse: ops per time lower, time per op higher.
//   - A series has regressed when its newest change point is a
//     regression and its newest point does not revert it: the newest point
//     is nearer the level before the change than the level after.
//
// Defaults: MinChange 5 % (compare's threshold), P 0.001 (Hunter's).
package history
