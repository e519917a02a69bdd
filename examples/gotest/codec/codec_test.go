package codec

import (
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

var sink uint32
