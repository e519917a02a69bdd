package faulty

import (
	"testing"
	"time"
)

func BenchmarkHang(b *testing.B) {
	for b.Loop() {
		time.Sleep(time.Hour)
	}
}

func BenchmarkFail(b *testing.B) {
	b.Fatal("no input file: testdata/input.bin")
}

func BenchmarkSub(b *testing.B) {
	b.Run("small", func(b *testing.B) {
		for b.Loop() {
		}
	})
}

func BenchmarkOK(b *testing.B) {
	for b.Loop() {
	}
}
