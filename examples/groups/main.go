// Command groups measures a reader/writer lock as JMH's @Group does: one
// writer and three readers on one sync.RWMutex, all running at once, each
// member with its own score.
//
//	go run ./examples/groups run examples/groups/groups.yaml
package main

import (
	"sync"

	"github.com/benchspec/benchspec"
)

func init() {
	// setup runs once per fork: the lock and the table are the state
	// every member's threads share (JMH's Scope.Group).
	benchspec.RegisterGroup("rw", func(g *benchspec.Group) {
		var mu sync.RWMutex
		table := make([]uint64, 1024)
		g.Add("write", func(b *benchspec.B) {
			for i := 0; b.Loop(); i++ {
				mu.Lock()
				table[i&1023]++
				mu.Unlock()
			}
		})
		g.Add("read", func(b *benchspec.B) {
			sum := uint64(0)
			for i := b.Thread(); b.Loop(); i++ {
				mu.RLock()
				sum += table[i&1023]
				mu.RUnlock()
			}
			benchspec.Sink(sum)
		})
	})
}

func main() { benchspec.Main() }
