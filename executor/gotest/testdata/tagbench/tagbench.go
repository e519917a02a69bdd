// Package tagbench has a benchmark only a build with the tag
// benchspec_tag sees (tagged_test.go), for the builds of a spec.
package tagbench

// Double doubles n.
func Double(n int) int { return 2 * n }
