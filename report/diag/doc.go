// Package diag tells the user when a number cannot be trusted. Its checks
// are pure functions over what the forks measured and return diagnostics
// as data — a stable code, a severity, a message that names the remedy,
// the evidence in numbers — as benchmath returns Sample.Warnings.
//
// A false alarm costs more than a missed one: a user who learns that the
// warnings cry wolf stops reading them. So every test needs both strict
// significance and an effect large enough to matter, and sound benchmarks
// stay silent on a shared, noisy 2-core VM. docs/diagnostics.md gives
// each rule and how its threshold was chosen; the spec can set each
// (spec.DiagSettings).
//
// A diagnostic that follows from another is not repeated: numbers that
// time the clock (TIMER_RESOLUTION) or the harness (DEAD_CODE) get no
// other check but IN_PROCESS; a trend explains spread, width and modes;
// forks that disagree explain modes and width.
package diag
