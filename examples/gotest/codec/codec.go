// Package codec is a small stand-in for a package of a real project with
// go test benchmarks of its own (codec_test.go): the examples/gotest specs
// run them with benchspec without changing a line.
package codec

// hexDigits are the digits Encode writes.
const hexDigits = "0123456789abcdef"

// EncodedLen is the length of the hex encoding of n bytes.
func EncodedLen(n int) int { return 2 * n }

// Encode writes the lower-case hex encoding of src into dst, which must
// hold EncodedLen(len(src)) bytes, and returns the number of bytes
// written.
func Encode(dst, src []byte) int {
	for i, b := range src {
		dst[2*i] = hexDigits[b>>4]
		dst[2*i+1] = hexDigits[b&0x0f]
	}
	return EncodedLen(len(src))
}

// Checksum is the FNV-1a hash of data.
func Checksum(data []byte) uint32 {
	h := uint32(2166136261)
	for _, b := range data {
		h ^= uint32(b)
		h *= 16777619
	}
	return h
}
