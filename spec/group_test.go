package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGroupThreads: an entry's group_threads reaches Settings.GroupThreads
// as written, each member's key has its position (for the plan's errors
// about that member), and an entry without it has none.
func TestGroupThreads(t *testing.T) {
	src := `version: 1
name: groups
benchmarks:
  - include: rw
    group_threads:
      write: 1
      read: 3
  - include: rw
`
	s, err := Parse("g.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := s.Entries[0]
	if diff := cmp.Diff(map[string]int{"write": 1, "read": 3}, e.Settings.GroupThreads); diff != "" {
		t.Errorf("GroupThreads (-want +got):\n%s", diff)
	}
	for key, want := range map[string]Pos{
		"group_threads":       {"g.yaml", 6, 7},
		"group_threads.write": {"g.yaml", 6, 7},
		"group_threads.read":  {"g.yaml", 7, 7},
	} {
		if got := e.SettingPos[key]; got != want {
			t.Errorf("SettingPos[%s] = %v, want %v", key, got, want)
		}
	}
	if g := s.Entries[1].Settings.GroupThreads; g != nil {
		t.Errorf("an entry without group_threads has %v", g)
	}
	if _, ok := s.Entries[1].SettingPos["group_threads"]; ok {
		t.Error("an entry without group_threads has its position")
	}
}
