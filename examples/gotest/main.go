// Command gotest shows the two ways to bring existing go test benchmarks
// into benchspec.
//
// A func(*testing.B) that a package can import — in a non-test file, as
// here — is registered with benchspec.RegisterTesting and runs in this
// suite next to native bodies (registered.yaml):
//
//	go run ./examples/gotest run examples/gotest/registered.yaml
//
// Benchmarks in _test.go files, which nothing can import, are run from
// their package's own test binary by naming the package in the spec
// (package.yaml); that needs no suite at all:
//
//	go run ./cmd/benchspec run examples/gotest/package.yaml
package main

import (
	"math"
	"testing"

	"github.com/benchspec/benchspec"
	"github.com/benchspec/benchspec/examples/gotest/codec"
)

func init() {
	benchspec.RegisterTesting("sqrt.LoopDropped", benchmarkSqrtLoop)
	benchspec.Register("sqrt.NativeDropped", func(b *benchspec.B) {
		x := 0.0
		for b.Loop() {
			_ = math.Sqrt(x) // compiled away: this measures the empty loop
			x++
		}
	})
	benchspec.RegisterTesting("codec.Encode", benchmarkEncode)
}

// benchmarkSqrtLoop drops math.Sqrt's result, and yet measures it: the
// compiler keeps everything inside `for b.Loop()` alive.
func benchmarkSqrtLoop(b *testing.B) {
	x := 0.0
	for b.Loop() {
		_ = math.Sqrt(x)
		x++
	}
}

func benchmarkEncode(b *testing.B) {
	src := make([]byte, 4096)
	dst := make([]byte, codec.EncodedLen(len(src)))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		codec.Encode(dst, src)
	}
}

func main() { benchspec.Main() }
