package host

import "testing"

// TestTrimBrand cuts raw CPUID brand strings as go test's cpu line does:
// leading spaces dropped (Intel right-justifies), trailing spaces kept
// (AMD pads), cut at the first NUL.
func TestTrimBrand(t *testing.T) {
	for raw, want := range map[string]string{
		"       Intel(R) Xeon(R) CPU @ 2.20GHz\x00\x00":   "Intel(R) Xeon(R) CPU @ 2.20GHz",
		"AMD EPYC 7B13 64-Core Processor                ": "AMD EPYC 7B13 64-Core Processor                ",
		"\x00junk after the end":                          "",
	} {
		if got := trimBrand([]byte(raw)); got != want {
			t.Errorf("trimBrand(%q) = %q, want %q", raw, got, want)
		}
	}
}
