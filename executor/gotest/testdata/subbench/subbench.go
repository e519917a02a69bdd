// Package subbench has the kinds of benchmarks real packages have: b.Run
// sub-benchmarks with names go test rewrites and numbers, skips, and
// benchmarks that print.
package subbench

// Sum adds the bytes of p.
func Sum(p []byte) (s int) {
	for _, b := range p {
		s += int(b)
	}
	return s
}
