package executor

import "testing"

// A duet is starved when neither fork got most of a CPU: beside a busy
// neighbour on two CPUs both get about two thirds. The faster fork of a
// healthy duet waits at every barrier for the slower one and gets less,
// so only the slower fork's share tells; a fork that did not run (share
// 0) tells nothing.
func TestDuetStarved(t *testing.T) {
	for _, tc := range []struct {
		a, b float64
		want bool
	}{
		{0.98, 0.99, false},
		{0.97, 0.5, false}, // the faster fork waited half its life
		{0.66, 0.64, true},
		{0.79, 0.2, true},
		{0, 0.5, false},
	} {
		d := newDuet()
		d.sides[0].share, d.sides[1].share = tc.a, tc.b
		if got, _, _ := d.starved(); got != tc.want {
			t.Errorf("shares %v and %v: starved %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
