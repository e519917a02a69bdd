// Command quickstart is the smallest benchspec suite: one benchmark, one
// spec.
//
//	go run ./examples/quickstart run examples/quickstart/quickstart.yaml
package main

import (
	"strings"

	"github.com/benchspec/benchspec"
)

func init() {
	benchspec.Register("strings.Repeat", func(b *benchspec.B) {
		for b.Loop() {
			benchspec.Sink(strings.Repeat("ab", 32))
		}
	})
}

func main() { benchspec.Main() }
