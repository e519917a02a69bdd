package spec

import "time"

// PairedDefaults are `benchspec ab`'s settings where a spec sets none:
// many short forks, not a few long ones, since ab judges a change from
// pairs of forks (one of each build, run side by side) and adds pairs
// until the change is decided. A pair is the unit: the more of them in
// a given time, the narrower the interval. Measured on 2-core VMs
// (docs/statistics.md), 1 warmup and 2 measurement iterations of 50 ms
// gave the narrowest interval per second of a 2 µs body's pairs: the
// warmup covers page faults, caches and the clock's ramp, and the
// between-fork spread dominates the within-fork one as it does for
// run (DefaultSettings). Forks is the first block of pairs, after
// which ab looks for the first time; 10 is the fewest at which a
// pair's spread is worth estimating.
func PairedDefaults() Settings {
	s := DefaultSettings()
	s.Forks = 10
	s.Warmup = Iterations{Iterations: 1, Time: 50 * time.Millisecond, BatchSize: 1}
	s.Measurement = Iterations{Iterations: 2, Time: 50 * time.Millisecond, BatchSize: 1}
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
