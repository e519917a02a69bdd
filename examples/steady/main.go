// Command steady shows a benchmark with no steady state. cache.Grows looks
// up a key that is not there in a list-backed cache, so every call scans
// the whole list, and an iteration setup hook adds 1024 entries before
// every iteration, as a cache that nobody trims grows while a benchmark
// runs: the time per call rises with every iteration, the score is an
// average over a moving target, and it depends on how long the benchmark
// ran. Measured in avgt it trips NOT_STEADY. cache.Trimmed trims the cache
// back to 1024 entries before every iteration and is steady.
//
// The same story with the work growing with every call rather than every
// iteration is seeds' list.InsertMiddle, measured in single-shot mode from
// a fresh slice per iteration, which is how such work is measured.
//
//	go run ./examples/steady run examples/steady/steady.yaml
package main

import "github.com/benchspec/benchspec"

// step is how many entries the cache gains per iteration.
const step = 1024

// lookup scans the list for a key that is not in it.
func lookup(list []int64, key int64) bool {
	for _, v := range list {
		if v == key {
			return true
		}
	}
	return false
}

// cacheBench returns a benchmark that looks up a missing key in a cache
// which gains step entries before every iteration, and is trimmed back to
// step entries first when trim is set.
func cacheBench(trim bool) func(*benchspec.B) {
	return func(b *benchspec.B) {
		var list []int64
		b.SetupIteration(func() {
			if trim {
				list = list[:0]
			}
			for range step {
				list = append(list, int64(len(list)))
			}
		})
		found := 0
		for b.Loop() {
			if lookup(list, -1) {
				found++
			}
		}
		benchspec.Sink(found)
	}
}

func init() {
	benchspec.Register("cache.Grows", cacheBench(false))
	benchspec.Register("cache.Trimmed", cacheBench(true))
}

func main() { benchspec.Main() }
