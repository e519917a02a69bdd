// Package nobench has tests but no benchmarks.
package nobench

// Two returns 2.
func Two() int { return 2 }
