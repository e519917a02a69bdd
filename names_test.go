package benchspec

import (
	"strings"
	"testing"
)

// TestBenchmarkNames checks the names Register accepts: letters, digits
// and _ . / -, nothing else, and not empty.
func TestBenchmarkNames(t *testing.T) {
	for _, name := range []string{"a", "Z9", "json.Decode/small-1_x", "..."} {
		if !validName(name) {
			t.Errorf("validName(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"", "a b", "a:b", "ü", "a*", "a\x00", "tab\t"} {
		if validName(name) {
			t.Errorf("validName(%q) = true, want false", name)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "invalid benchmark name") {
					t.Errorf("Register(%q): panic %v, want an invalid benchmark name", name, r)
				}
			}()
			Register(name, func(*B) {})
		}()
	}
}
