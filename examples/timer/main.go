// Command timer tells the clock-edge story: a single-shot benchmark that
// times one call of about 100 ns per iteration measures the clock as much
// as the call. Reading the monotonic clock costs 20–70 ns and its readings
// step by about as much, so one timed interval of 100 ns carries an error
// of tens of percent, whichever edge of a clock step it starts on.
// benchspec flags it as TIMER_RESOLUTION; timing a batch of 10 000 calls
// per interval (and counting it as 10 000 ops) fixes it.
//
//	go run ./examples/timer run examples/timer/timer.yaml
package main

import (
	"math"

	"github.com/benchspec/benchspec"
)

// logChain is about 100 ns of dependent work: five logarithms, each
// waiting for the one before. v = ln(v) + 2 stays near its fixed point.
func logChain(x float64) float64 {
	v := x
	for range 5 {
		v = math.Log(v) + 2
	}
	return v
}

func body(b *benchspec.B) {
	x := 1.0
	for b.Loop() {
		benchspec.Sink(logChain(x))
		x += 1e-9
	}
}

func init() {
	// The same body twice, so that the spec can time it one call at a
	// time (timer.OneCall) and in batches (timer.Batch).
	benchspec.Register("timer.OneCall", body)
	benchspec.Register("timer.Batch", body)
}

func main() { benchspec.Main() }
