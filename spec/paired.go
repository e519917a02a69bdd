package spec

import "time"

// PairedDefaults are `benchspec ab`'s settings where a spec sets none:
// many short forks, not a few long ones, since ab judges a change from
// pairs of forks (one of each build, run side by side) and adds pairs
// until the change is decided. A pair is the unit: the more of them in
// a given time, the narrower the interval. Measured on a 2-core VM
// (docs/statistics.md), a 2 µs body's duets of 1 warmup and 2
// measurement iterations of 20 ms varied by 2.2–2.4 % a pair in 0.07 s,
// of 50 ms by 2.2 % in 0.16 s and of 100 ms by 1.5 % in 0.31 s: the
// spread lies between forks, so shorter forks buy more pairs for the
// same spread (10 ms varied by 2.7–5.4 %). Forks is the first block of
// pairs, after which ab looks for the first time; 10 is the fewest at
// which a pair's spread is worth estimating.
func PairedDefaults() Settings {
	s := DefaultSettings()
	s.Forks = 10
	s.Warmup = Iterations{Iterations: 1, Time: 20 * time.Millisecond, BatchSize: 1}
	s.Measurement = Iterations{Iterations: 2, Time: 20 * time.Millisecond, BatchSize: 1}
	return s
}

// UsePairedDefaults gives every entry of s PairedDefaults' value of
// each key that neither the entry nor the spec's defaults set: the
// spec's settings still win, key by key.
func (s *Spec) UsePairedDefaults() {
	d := PairedDefaults()
	for i := range s.Entries {
		e := &s.Entries[i]
		set := func(key string) bool { _, ok := e.SettingPos[key]; return ok }
		if !set("forks") {
			e.Settings.Forks = d.Forks
		}
		for _, ph := range []struct {
			name string
			dst  *Iterations
			src  Iterations
		}{{"warmup", &e.Settings.Warmup, d.Warmup}, {"measurement", &e.Settings.Measurement, d.Measurement}} {
			if !set(ph.name + ".iterations") {
				ph.dst.Iterations = ph.src.Iterations
			}
			if !set(ph.name + ".time") {
				ph.dst.Time = ph.src.Time
			}
		}
	}
}
