// Package diag tells the user when a number cannot be trusted. Its checks
// are pure functions over what the forks measured (protocol.ForkResult:
// iteration times and operations, sample histograms, the clock
// calibration and empty-loop baseline of every fork) and return
// diagnostics as data — a stable code, a severity, a message that names
// the remedy, and the evidence in numbers — the way benchmath returns
// Sample.Warnings rather than printing them.
//
// The package is opinionated, and its first opinion is that a false alarm
// costs more than a missed one: a user who learns that the warnings cry
// wolf stops reading them. Every statistical test therefore needs both
// strict significance (p < 0.001 by default) and an effect large enough to
// matter, so that sound benchmarks stay silent on a shared, noisy 2-core
// VM:
//
//   - DEAD_CODE: measured against its own fork's empty-loop floor, a
//     call of the body costs less than three times it, at the median
//     over all iterations of all forks. Every fork times the empty body
//     before its benchmark, in both loop forms (`for b.Loop()` and
//     `for range b.Invocations()`, taken in turn), and its floor is the
//     fastest of those iterations. An empty loop iteration costs about
//     one cycle (one taken branch), so the rule reads "the body adds
//     less than about two cycles": either the compiler removed it, or it
//     is too small to be measured. The baseline is measured, not
//     assumed, so the rule needs no CPU frequency; per fork, because
//     what a loop iteration costs is a property of the process and of
//     the core's state while it runs, and a body from one fork against
//     the baseline of another is judged by accident; the fastest
//     iteration, because interference only ever adds time to an empty
//     loop, and a spell that slows most of the baseline moved its median
//     (in 40 idle seeds runs, two sound benchmarks drew a false
//     DEAD_CODE at 2.9× that way) but not its floor; either form, because the fork
//     measures before its body shows which one it uses, and the cheaper
//     form's floor is the lower one, against which DEAD_CODE fires less
//     often, never more. The body's side is the median over its
//     iterations: load that lasts slows them too, which raises the
//     ratio. On the 2-core VM this was tuned on, dead bodies measured
//     0.8–2.1× the baseline (also under heavy contention) and the
//     smallest real one, an interface call that increments a counter,
//     4.7–9×.
//   - TIMER_RESOLUTION: the clock's resolution or the cost of one read is
//     more than 1 % of the typical timed interval (ss: a batch; sample: a
//     sampled batch; thrpt and avgt: a whole iteration).
//   - NOT_STEADY: the seasonal Mann-Kendall test (each fork a season, its
//     S and variance summed, ties corrected) finds a trend with p < 0.001
//     and Sen's slope is above 1 % of the mean per iteration.
//   - FORKS_DISAGREE: the one-way ANOVA over the forks has p < 0.001, the
//     between-fork variance component is at least 9 times the within-fork
//     variance (fork means spread three times as far as the iterations of
//     a fork), and the fork means lie more than 5 % apart. The components
//     are the report's own (internal/forkstat), and the message gives the
//     measured between-fork share. Significance alone fires on any small,
//     real difference between processes: on the VM this was tuned on,
//     forks of sound benchmarks differed by 2–7 % (memory layout, the
//     core a fork ran on) with variance ratios up to 4.7, which is what
//     forks are there to average. The score's error counts forks, so it
//     carries this variance; the warning says that the process matters
//     this much, and that a few forks are few samples of it.
//   - MULTIMODAL: BenchmarkDotNet's mvalue (2 for one mode, 4 for two) is
//     at least 3.2, which BenchmarkDotNet calls bimodal (4.2 and up
//     multimodal; its "may have several modes" from 2.8 is not reported),
//     and the two highest modes lie more than 10 % of the mean apart:
//     log.Classic's samples once showed two modes 5 % apart (a core
//     running faster for a while), which the mean describes well enough.
//     Iteration scores are only tested when there are at least 30 of them,
//     the sample histogram always. The histograms are made robust against
//     the noise of fixed-width bins; see mvalue.
//   - HIGH_VARIANCE: the robust coefficient of variation (1.4826 × MAD /
//     median, the normal-consistent stdev over the median) is above 10 %:
//     most iterations disagree, which a spike from another process cannot
//     cause on its own. Outliers beyond Tukey's fences are only reported,
//     with severity info, when dropping them moves the mean by more than
//     5 %.
//   - TOO_FEW_SAMPLES: n ≤ 2 (there is no useful 99.9 % error), or the
//     99.9 % interval, which counts forks, is wider than the score itself
//     (it names the forks that would narrow it). With 2 forks that is
//     almost always so: t(0.9995, 1) is 636.6. A single fork has no such
//     interval; it is reported when even its iterations' interval, too
//     narrow as it is, is wider than the score.
//   - IN_PROCESS: forks: 0.
//
// Every threshold can be set in the spec (`diagnostics:`, see
// spec.DiagSettings), per entry, and codes can be ignored there.
//
// Severities: SeverityWarning means the number should not be used as it
// is; `run --strict` exits 1 on any warning. SeverityInfo is context that
// does not make the number wrong (outliers that moved the mean, the
// environment running under a hypervisor).
//
// Diagnostics that follow from another one are not repeated. With n ≤ 2
// only TOO_FEW_SAMPLES is computed. When the clock cannot time the
// intervals (TIMER_RESOLUTION) or the body is dead (DEAD_CODE), every
// other check would read numbers that measure the clock or the harness,
// and is skipped (IN_PROCESS excepted). A trend (NOT_STEADY) explains a
// wide interval, a large spread and a flat, wide distribution, so
// TOO_FEW_SAMPLES, HIGH_VARIANCE and MULTIMODAL are skipped then; forks
// that disagree explain several modes and a wide interval. Ignoring a code in the spec lets
// the ones it would have hidden through.
package diag
