package spec

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// precision: in defaults gets the default bounds; an entry overrides key
// by key; a target of zero is refused where it is written.
func TestParsePrecision(t *testing.T) {
	s, err := Parse("p.yaml", []byte(`version: 1
name: p
defaults:
  precision: {error: 1%}
benchmarks:
  - include: a
  - include: b
    precision: {error: 0.5 %, max_forks: 8, max_time: 90s}
  - include: c
    precision: {max_time: 1m}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := []Precision{s.Entries[0].Settings.Precision, s.Entries[1].Settings.Precision, s.Entries[2].Settings.Precision}
	want := []Precision{
		{Error: 0.01},
		{Error: 0.005, MaxForks: 8, MaxTime: 90 * time.Second},
		{Error: 0.01, MaxTime: time.Minute},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("precision per entry (-want +got):\n%s", diff)
	}
	if !got[0].Set() || (Precision{}).Set() || got[1].ForkBound(3) != 8 || got[1].ForkBound(10) != 10 ||
		got[0].ForkBound(3) != DefaultPrecisionMaxForks || got[0].TimeBound() != DefaultPrecisionMaxTime || got[2].TimeBound() != time.Minute {
		t.Errorf("Set or ForkBound wrong for %+v", got)
	}
	_, err = Parse("p.yaml", []byte("version: 1\nname: p\nbenchmarks:\n  - include: a\n    precision: {error: 0%}\n"))
	if err == nil || !strings.Contains(err.Error(), "p.yaml:5:") || !strings.Contains(err.Error(), "error") {
		t.Errorf("error 0%%: %v, want an error at p.yaml:5", err)
	}
}
