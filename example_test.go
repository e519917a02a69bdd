package benchspec_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/benchspec/benchspec"
)

// The examples register benchmarks, which a suite does in init; they
// compile with go test and are not run: a body runs only in a fork,
// measured by the parent (`run`).

// A suite registers bodies by name in init and calls Main from main:
//
//	func init() { benchspec.Register("sqrt.Sunk", ...) }
//	func main() { benchspec.Main() }
//
// Code before the loop is setup, untimed; the loop spans every warmup and
// measurement iteration of the fork.
func ExampleRegister() {
	benchspec.Register("hash.SHA256", func(b *benchspec.B) {
		data := make([]byte, 1024) // setup: not timed
		for b.Loop() {
			benchspec.Sink(sha256.Sum256(data))
		}
	})
}

// RegisterTesting runs an ordinary go test benchmark under benchspec's
// forks and statistics: each iteration is one testing.Benchmark call.
func ExampleRegisterTesting() {
	benchspec.RegisterTesting("hex.Encode", func(b *testing.B) {
		src := make([]byte, 1024)
		dst := make([]byte, hex.EncodedLen(len(src)))
		b.SetBytes(int64(len(src))) // MB/s becomes a secondary metric
		for b.Loop() {
			hex.Encode(dst, src)
		}
	})
}

// RegisterGroup measures members of different code at once on one
// state (JMH's @Group): here one writer and readers of one lock. The
// spec gives each member's threads, `group_threads: {write: 1, read: 3}`;
// the report has a row for lock.RW, lock.RW:write and lock.RW:read.
func ExampleRegisterGroup() {
	benchspec.RegisterGroup("lock.RW", func(g *benchspec.Group) {
		var mu sync.RWMutex // one per fork, shared by every member's threads
		counter := 0
		g.Add("write", func(b *benchspec.B) {
			for b.Loop() {
				mu.Lock()
				counter++
				mu.Unlock()
			}
		})
		g.Add("read", func(b *benchspec.B) {
			sum := 0
			for b.Loop() {
				mu.RLock()
				sum += counter
				mu.RUnlock()
			}
			benchspec.Sink(sum)
		})
	})
}

// Sink keeps a result alive, so the compiler cannot drop the work that
// produced it. Without it, math.Sqrt(x) with its result unused would be
// compiled away, and the run flagged DEAD_CODE.
func ExampleSink() {
	benchspec.Register("sqrt.Sunk", func(b *benchspec.B) {
		x := 0.0
		for b.Loop() {
			benchspec.Sink(math.Sqrt(x))
			x++ // depends on state the loop changes
		}
	})
}

// Loop is the loop of a benchmark body; SetupIteration prepares fresh
// input before each iteration, outside the timed window.
func ExampleB_Loop() {
	benchspec.Register("sort.Ints1000", func(b *benchspec.B) {
		var input []int
		b.SetupIteration(func() { input = randomInts(1000) })
		work := make([]int, len(input))
		for b.Loop() {
			copy(work, input) // every op sorts the same unsorted input
			slices.Sort(work)
		}
	})
}

// Invocations keeps the loop's counter in a register: for bodies of a
// few nanoseconds, where the memory chain of Loop's counter would be a
// measurable part of the score.
func ExampleB_Invocations() {
	benchspec.Register("map.Lookup", func(b *benchspec.B) {
		m := map[int]int{}
		for i := range 1024 {
			m[i] = i
		}
		i := 0
		for range b.Invocations() {
			benchspec.Sink(m[i&1023])
			i++
		}
	})
}

// Params declares string parameters with their default values; a spec's
// `params` may replace them, and the plan runs every combination.
func ExampleParams() {
	benchspec.Register("strings.Builder", func(b *benchspec.B) {
		word := b.Param("word")
		for b.Loop() {
			var sb strings.Builder
			for range 16 {
				sb.WriteString(word)
			}
			benchspec.Sink(sb.String())
		}
	}, benchspec.Params{"word": {"a", "benchmark"}})
}

// IntParams declares integer parameters; a spec value that is not an
// integer is refused at plan time, with its position.
func ExampleIntParams() {
	benchspec.Register("maps.Clone", func(b *benchspec.B) {
		n := b.IntParam("size")
		m := make(map[int]int, n)
		for i := range n {
			m[i] = i
		}
		for b.Loop() {
			benchspec.Sink(maps.Clone(m))
		}
	}, benchspec.IntParams{"size": {10, 10000}})
}

// Param returns this run's value of a declared parameter. A spec
// selects values with `params`:
//
//	benchmarks:
//	  - include: '^codec\.Encode$'
//	    params: {codec: [hex]}
func ExampleB_Param() {
	benchspec.Register("codec.Encode", func(b *benchspec.B) {
		var encode func([]byte) string
		switch b.Param("codec") {
		case "hex":
			encode = hex.EncodeToString
		default:
			b.Fatalf("unknown codec %q", b.Param("codec"))
		}
		src := make([]byte, 256)
		for b.Loop() {
			benchspec.Sink(encode(src))
		}
	}, benchspec.Params{"codec": {"hex"}})
}

// randomInts returns n ints in a fixed pseudo-random order.
func randomInts(n int) []int {
	s := make([]int, n)
	x := uint32(1)
	for i := range s {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		s[i] = int(x)
	}
	return s
}
