//go:build race

package main

// raceEnabled: the race detector replaces the Go runtime's out-of-memory
// death with its own (exit status 66).
const raceEnabled = true
