package runlog

import (
	"testing"
	"time"

	"github.com/benchspec/benchspec/report/reporttest"
)

// The ETA starts at the plan's estimate, is scaled by how the finished
// forks compared with theirs, counts the running fork for what it has
// left, and takes forks done elsewhere (a resumed journal) or skipped (a
// failed run) at the plan's mean per fork.
func TestETA(t *testing.T) {
	p, _, _ := reporttest.Fixture() // 2 min over 7 forks; run 0: 3 forks of 15 s, run 1: 1 fork of 15 s
	e := NewETA(p)
	for _, tc := range []struct {
		name      string
		step      func()
		done, all int
		elapsed   time.Duration
		want      time.Duration
	}{
		{"nothing done", func() {}, 0, 7, 0, 2 * time.Minute},
		{"first fork running 5 s", func() { e.Start(&p.Runs[0]) }, 0, 7, 5 * time.Second, 115 * time.Second},
		{"running past its estimate", func() {}, 0, 7, time.Minute, 105 * time.Second},
		{"first fork took 30 s: twice the plan", func() { e.End(&p.Runs[0], 30*time.Second) }, 1, 7, 0, 210 * time.Second},
		{"a failed run skips 2 forks", func() {}, 1, 5, 0, 210*time.Second - 2*2*120*time.Second/7},
		{"a resumed fork counted done", func() {}, 2, 7, 0, 210*time.Second - 2*120*time.Second/7},
		{"everything done", func() {}, 7, 7, 0, 0},
	} {
		tc.step()
		if got := e.Left(tc.done, tc.all, tc.elapsed); (got - tc.want).Abs() > time.Millisecond {
			t.Errorf("%s: Left(%d, %d, %v) = %v, want %v", tc.name, tc.done, tc.all, tc.elapsed, got, tc.want)
		}
	}
}
