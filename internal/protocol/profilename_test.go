package protocol

import (
	"strings"
	"testing"
)

// TestProfileNamesDoNotCollide: run keys that differ only in characters
// unsafe in a file name (params a/b, a_b, a:b) get distinct profile
// files, and a long key a name a file system accepts.
func TestProfileNamesDoNotCollide(t *testing.T) {
	seen := map[string]string{}
	for _, key := range []string{"x[p=a/b]:avgt", "x[p=a_b]:avgt", "x[p=a:b]:avgt", "x[p=a__b]:avgt", "x[p=a b]:avgt", "x[p=a/b]:thrpt"} {
		name := ProfileFile("/prof", key, 1, "cpu")
		if other, ok := seen[name]; ok {
			t.Errorf("keys %q and %q share the profile file %s", other, key, name)
		}
		seen[name] = key
		if !strings.HasPrefix(name, "/prof/x_p=a_b_") && !strings.HasPrefix(name, "/prof/x_p=a__b_") {
			t.Errorf("%q: %s does not start with the key made safe", key, name)
		}
	}
	if a, b := ProfileFile("/prof", "k", 1, "cpu"), ProfileFile("/prof", "k", 2, "cpu"); a == b {
		t.Errorf("forks 1 and 2 share %s", a)
	}
	long := ProfileFile("", strings.Repeat("k/", 500), 12, "mutex")
	if len(long) > 255 {
		t.Errorf("a long key's profile name has %d bytes, more than a file name may", len(long))
	}
}
