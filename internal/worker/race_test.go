//go:build race

package worker

// raceEnabled reports whether the tests run under the race detector,
// which enlarges every frame (TestIterationEndKeepsTheBodysStack).
const raceEnabled = true
