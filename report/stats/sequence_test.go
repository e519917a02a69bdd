package stats

import (
	"math"
	"testing"
)

// TestSequenceHalfWidth: at the pairs it is tuned for, the sequence at
// level 0.025 (a family of two) is 3.46 σ/√n wide (worked out by hand:
// the formula's 3.28 times t₂₉/z = 2.364/2.241), wider than the fixed-n
// t of 2.36, and it narrows as pairs come.
func TestSequenceHalfWidth(t *testing.T) {
	got := SequenceHalfWidth(1, SequenceTuned, 0.025) * math.Sqrt(SequenceTuned)
	if math.Abs(got-3.46) > 0.01 {
		t.Errorf("half-width at %d pairs, level 0.025: %.3f σ/√n, want 3.46", SequenceTuned, got)
	}
	for n := 3; n < 2000; n++ {
		if !(SequenceHalfWidth(1, n, 0.05) < SequenceHalfWidth(1, n-1, 0.05)) {
			t.Fatalf("half-width at %d pairs is not below that at %d", n, n-1)
		}
	}
	k, ok := SequencePairs(0.016, 0.01, 0.025, 1000)
	if !ok || !(SequenceHalfWidth(0.016, k, 0.025) < 0.01) || SequenceHalfWidth(0.016, k-1, 0.025) < 0.01 {
		t.Errorf("SequencePairs(1.6 %%, 1 %%) = %d, %v: not the fewest pairs under the margin", k, ok)
	}
	if _, ok := SequencePairs(1, 1e-4, 0.05, 1000); ok {
		t.Error("SequencePairs beyond its bound: ok")
	}
}
