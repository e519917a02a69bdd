// Command forks shows why every measured fork is a fresh process: a
// benchmark's number can depend on what ran before it in the same
// process. heap.Lookup builds a 256 MiB lookup table in a package
// variable, outside its timed loop, and never frees it — as a benchmark
// that fills a cache and does not clear it would. heap.Churn allocates
// small objects while keeping 64 Ki of them alive. Go's GC starts its next
// cycle when the heap has grown by GOGC % of the live heap, so after
// heap.Lookup a cycle comes every ~256 MiB of allocation instead of every
// few MiB, and heap.Churn's share of the GC's work almost disappears: run
// in the same process after heap.Lookup (forks: 0), it measures faster
// than it ever is on its own. Fresh forks measure it the same whatever ran
// before.
//
//	go run ./examples/forks run examples/forks/forks.yaml
//	go run ./examples/forks run examples/forks/inprocess.yaml
//	go run ./examples/forks run examples/forks/alone.yaml
package main

import "github.com/benchspec/benchspec"

// tableEntries × 1 KiB is the table heap.Lookup leaves live.
const tableEntries = 256 << 10

// table is the state heap.Lookup leaves behind.
var table [][]byte

// node is a small object with a pointer, so that the GC scans it.
type node struct {
	next *node
	v    [6]int64
}

func init() {
	benchspec.Register("heap.Lookup", func(b *benchspec.B) {
		b.SetupIteration(func() {
			if table == nil {
				table = make([][]byte, tableEntries)
				for i := range table {
					table[i] = make([]byte, 1024)
				}
			}
		})
		sum, i := 0, 0
		for b.Loop() {
			// a multiplicative hash spreads the lookups over the table
			sum += int(table[(i*2654435761)%tableEntries][i&1023])
			i++
		}
		benchspec.Sink(sum)
	})

	benchspec.Register("heap.Churn", func(b *benchspec.B) {
		ring := make([]*node, 1<<16)
		i := 0
		for b.Loop() {
			ring[i&(len(ring)-1)] = &node{v: [6]int64{int64(i)}}
			i++
		}
		benchspec.Sink(ring[i&(len(ring)-1)])
	})
}

func main() { benchspec.Main() }
