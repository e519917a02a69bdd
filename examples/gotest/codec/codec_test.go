package codec

import (
	"fmt"
	"testing"
)

func TestEncode(t *testing.T) {
	dst := make([]byte, EncodedLen(3))
	if n := Encode(dst, []byte{0x00, 0xab, 0xff}); n != 6 || string(dst) != "00abff" {
		t.Errorf("Encode = %d, %q; want 6, \"00abff\"", n, dst)
	}
}

var input = make([]byte, 4096)

// BenchmarkEncode is a modern benchmark: b.Loop keeps Encode's result
// alive, and MB/s comes from b.SetBytes.
func BenchmarkEncode(b *testing.B) {
	dst := make([]byte, EncodedLen(len(input)))
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		Encode(dst, input)
	}
}

// BenchmarkChecksum is a classic b.N loop that sinks its result itself.
func BenchmarkChecksum(b *testing.B) {
	var sum uint32
	for i := 0; i < b.N; i++ {
		sum += Checksum(input)
	}
	sink = sum
}

// BenchmarkEncodeAlloc allocates its output every time: B/op and
// allocs/op show it.
func BenchmarkEncodeAlloc(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		dst := make([]byte, EncodedLen(len(input)))
		Encode(dst, input)
	}
}

// BenchmarkChecksumSizes has one sub-benchmark per input size (b.Run):
// go test prints ChecksumSizes/size=64 and ChecksumSizes/size=4096, and
// each is a run of its own under benchspec, named the same.
func BenchmarkChecksumSizes(b *testing.B) {
	for _, n := range []int{64, 4096} {
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			data := make([]byte, n)
			b.SetBytes(int64(n))
			for b.Loop() {
				sink = Checksum(data)
			}
		})
	}
}

var sink uint32
