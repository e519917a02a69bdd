package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/benchspec/benchspec/plan"
)

// TestReadWriteKeepsShape holds the JSON report to its shape, key order
// included. A report built now reads back and writes again byte for
// byte. Reports written by earlier builds (compare/testdata) read back
// and write as testdata/readwrite_*.golden say: the same keys in the same
// order, plus the fields added since (the golden files were written
// before the report's types were shared with spec and plan, and pin that
// the sharing changed nothing).
func TestReadWriteKeepsShape(t *testing.T) {
	p, forks, env := fixture()
	whole := Build(p, forks, env)
	p.Shard = &plan.ShardInfo{Index: 2, Count: 3, PlanSHA256: strings.Repeat("ab", 32), PlannedRuns: []string{"a", "b"}}
	part := Build(p, forks, env)
	for name, built := range map[string][]byte{"built": writeJSON(t, whole), "built shard": writeJSON(t, part)} {
		rep, err := Read(bytes.NewReader(built))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(built), string(writeJSON(t, rep))); diff != "" {
			t.Errorf("%s report read and written again (-built +written):\n%s", name, diff)
		}
	}
	if want := `"shard": {
    "index": 2,
    "count": 3,
    "plan_sha256": "` + strings.Repeat("ab", 32) + `",
    "planned_runs": [
      "a",
      "b"
    ]
  },`; !strings.Contains(string(writeJSON(t, part)), want) {
		t.Errorf("the shard is not written as\n%s", want)
	}

	files, err := filepath.Glob(filepath.Join("compare", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reports in compare/testdata: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if !earlier[name] {
			// Written by this build (base5, slow5): byte for byte.
			if diff := cmp.Diff(string(data), string(writeJSON(t, rep))); diff != "" {
				t.Errorf("%s read and written again (-file +written):\n%s", f, diff)
			}
			continue
		}
		golden(t, "readwrite_"+name+".json.golden", string(writeJSON(t, rep)))
	}
	for name := range earlier {
		if _, err := os.Stat(filepath.Join("compare", "testdata", name+".json")); err != nil {
			t.Errorf("the earlier build's report %s.json is gone: %v", name, err)
		}
	}
}

// earlier names the reports in compare/testdata that earlier builds
// wrote, each with its testdata/readwrite_NAME.json.golden.
var earlier = map[string]bool{"base": true, "rerun": true, "slow": true}

// writeJSON encodes rep as the JSON renderer does (indented, HTML
// characters as written), on its own so that the test holds whichever
// package renders.
func writeJSON(t *testing.T, rep *Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
