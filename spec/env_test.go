package spec

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"1", 1}, {"512B", 512}, {"4KiB", 4 << 10}, {"64MiB", 64 << 20}, {"2GiB", 2 << 30}, {"1TiB", 1 << 40},
		{"0", 0}, {"", 0}, {"2GB", 0}, {"-1MiB", 0}, {"1.5GiB", 0}, {"GiB", 0}, {"99999999999TiB", 0}, {" 1MiB", 0},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if got != tt.want || (err == nil) != (tt.want > 0) {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}
