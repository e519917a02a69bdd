package history

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden renders the planted regression in every format but JSON,
// whose paths vary (cmd/benchspec checks it against its schema).
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	planted(t, realNights(t, 2), dir, 12, 7)
	h := load(t, dir)
	for _, format := range []string{"text", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, h, format); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "planted."+format+".golden")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
		})
	}
	if err := Write(&bytes.Buffer{}, h, "yaml"); err == nil {
		t.Errorf("format yaml: no error")
	}
}
