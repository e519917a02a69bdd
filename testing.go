package benchspec

import (
	"fmt"
	"testing"

	"github.com/benchspec/benchspec/internal/worker"
)

// RegisterTesting adds a standard go test benchmark function under name,
// unchanged: the func BenchmarkXxx(b *testing.B) a package already has
// runs under specs, forks, warmup and JMH statistics like a body given to
// Register.
//
//	benchspec.RegisterTesting("codec.Encode", codec.BenchmarkEncode)
//
// Each warmup and measurement iteration is one testing.Benchmark call,
// the measurement `go test -bench` makes for one -count, with the
// iteration time as its -test.benchtime (ss: batch_size invocations, "Nx").
// So `for b.Loop()` keeps the compiler's protection of its body's
// results, and b.N loops, b.ResetTimer, b.SetBytes and b.ReportMetric
// work as under go test. B/op, allocs/op, MB/s and b.ReportMetric units
// are the run's secondary metrics.
//
// Such a benchmark runs in avgt, thrpt and ss mode on one goroutine: a
// spec asking for sample mode or threads is rejected at plan time. It
// takes no parameters (it cannot read them); Params or IntParams among
// opts panic, as do an invalid or duplicate name and a nil function.
func RegisterTesting(name string, fn func(*testing.B), opts ...Option) {
	if fn == nil {
		panic(fmt.Sprintf("benchspec.RegisterTesting(%q): nil benchmark function", name))
	}
	register("RegisterTesting", name, worker.Body{Testing: fn}, opts)
}
