// Command threads contrasts one atomic counter shared by every thread
// with a counter per thread: the cost of contention, measured with
// threads started together each iteration.
//
//	go run ./examples/threads run examples/threads/threads.yaml
package main

import (
	"runtime"
	"sync/atomic"

	"github.com/benchspec/benchspec"
)

var shared atomic.Int64

// padded keeps each thread's counter on its own cache line.
type padded struct {
	n atomic.Int64
	_ [56]byte
}

var perThread [64]padded

func init() {
	benchspec.Register("counter.Shared", func(b *benchspec.B) {
		for b.Loop() {
			shared.Add(1)
		}
	})
	benchspec.Register("counter.PerThread", func(b *benchspec.B) {
		c := &perThread[b.Thread()%len(perThread)].n
		for b.Loop() {
			c.Add(1)
		}
	})
	// The GOMAXPROCS the fork sees, as a secondary metric: the spec's env
	// reaches the fork, not the parent.
	benchspec.Register("runtime.GOMAXPROCS", func(b *benchspec.B) {
		for b.Loop() {
		}
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "gomaxprocs")
	})
}

func main() { benchspec.Main() }
