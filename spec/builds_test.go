package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuildsParse: every key of a build reaches Build as written (a pgo
// path stays relative to the spec), with the positions errors name; a
// spec without builds has none.
func TestBuildsParse(t *testing.T) {
	s, err := Parse("b.yaml", []byte(`version: 1
name: b
builds:
  - name: base
  - name: noinline
    gcflags: "-l"
  - name: v3
    goamd64: v3
  - {name: pgo, pgo: prof/default.pgo}
  - name: purego
    tags: [purego, go1.26]
  - name: go1.26
    toolchain: go1.26.8
benchmarks:
  - include: x
`))
	if err != nil {
		t.Fatal(err)
	}
	at := func(line, col int) Pos { return Pos{File: "b.yaml", Line: line, Col: col} }
	want := []Build{
		{Name: "base", Pos: at(4, 5)},
		{Name: "noinline", Pos: at(5, 5), GCFlags: "-l"},
		{Name: "v3", Pos: at(7, 5), GOAMD64: "v3"},
		{Name: "pgo", Pos: at(9, 5), PGO: "prof/default.pgo", PGOPos: at(9, 22)},
		{Name: "purego", Pos: at(10, 5), Tags: []string{"purego", "go1.26"}},
		{Name: "go1.26", Pos: at(12, 5), Toolchain: "go1.26.8"},
	}
	if diff := cmp.Diff(want, s.Builds); diff != "" {
		t.Errorf("builds (-want +got):\n%s", diff)
	}
	if !s.Builds[3].PGOFile() || (&Build{PGO: "auto"}).PGOFile() || (&Build{PGO: "off"}).PGOFile() || (&Build{}).PGOFile() {
		t.Error("PGOFile: want true for a path only, not for auto, off or none")
	}
	s, err = Parse("n.yaml", []byte("version: 1\nname: n\nbenchmarks:\n  - include: x\n"))
	if err != nil || s.Builds != nil {
		t.Errorf("a spec without builds: %v, builds %v; want none", err, s.Builds)
	}
}
