package spec

import (
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The front end's shortcuts must give what the general code gives: these
// tests compare them on the cases where they could differ.

// TestPlainDecimalAgreesWithYAML checks the integers scalar reads without
// yaml.v3's decoder against the decoder, and that the spellings yaml.v3
// reads differently (octal, underscores, hex) are left to it.
func TestPlainDecimalAgreesWithYAML(t *testing.T) {
	for _, s := range []string{"0", "7", "-3", "10", "200", "123456789012345678", "-123456789012345678"} {
		got, ok := plainDecimal(s)
		if !ok {
			t.Errorf("plainDecimal(%q) not taken", s)
			continue
		}
		var v any
		if err := yaml.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		if want, _ := v.(int); int64(want) != got {
			t.Errorf("plainDecimal(%q) = %d, yaml.v3 reads %v", s, got, v)
		}
	}
	for _, s := range []string{"", "-", "010", "00", "-0x10", "0x10", "1_000", "+5", "0o7", "1e3", "9223372036854775807", "1.5", "12a"} {
		if v, ok := plainDecimal(s); ok {
			t.Errorf("plainDecimal(%q) = %d, want it left to yaml.v3", s, v)
		}
	}
}

// TestDuplicateKeysSmallAndLarge checks that a mapping with few keys
// (compared pairwise) and one with many (through a map) report the same
// duplicate, at the repeated key, naming the first.
func TestDuplicateKeysSmallAndLarge(t *testing.T) {
	for _, n := range []int{3, smallMapping, smallMapping + 1, 3 * smallMapping} {
		var env strings.Builder
		for i := range n {
			env.WriteString("      V" + strconv.Itoa(i) + ": x\n")
		}
		env.WriteString("      V1: again\n")
		src := "version: 1\nname: dup\nbenchmarks:\n  - include: a\n    env:\n" + env.String()
		_, err := Parse("d.yaml", []byte(src))
		errs := Errors(err)
		dupLine := 6 + n
		want := "d.yaml:" + strconv.Itoa(dupLine) + ":7: duplicate key \"V1\" (first defined at line 7, column 7)"
		if len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%d keys: got %v, want [%s]", n, err, want)
		}
	}
}

// TestEntryPositionsAsPointers checks the positions build records, looked
// up member by member from each entry's node, against the positions of
// the same values looked up by JSON pointer from the root, through
// aliases, merges and an entry that is an alias.
func TestEntryPositionsAsPointers(t *testing.T) {
	src := `version: 1
name: pos
defaults: &d
  forks: 1
  warmup: {iterations: 2, time: 10ms}
  measurement: &m {iterations: 2}
  env: {A: "1"}
benchmarks:
  - &e
    include: a
    exclude: b
    measurement:
      <<: *m
      time: 2s
    params: {size: [1, 2], "k/~": x}
  - include: b
    <<: [{forks: 4, threads: 2}, {forks: 5, warmup_forks: 1}]
    threads: 3
    warmup: {time: 5ms}
    group_threads: {write: 1, "r/d": 3}
  - *e
  - include: c
    package: ./x
    modes: [avgt]
`
	d := newDocument("p.yaml")
	if !d.load([]byte(src)) {
		t.Fatal(d.errorList())
	}
	s := d.build([]byte(src))
	if len(s.Entries) != 4 {
		t.Fatalf("%d entries", len(s.Entries))
	}
	ptrOf := func(key string) string { // "warmup.time" -> /warmup/time
		var b strings.Builder
		for _, tok := range strings.Split(key, ".") {
			b.WriteString("/" + escapeToken(tok))
		}
		return b.String()
	}
	checked := 0
	for i, e := range s.Entries {
		base := "/benchmarks/" + strconv.Itoa(i)
		check := func(what string, got Pos, ptr string) {
			t.Helper()
			checked++
			if want := d.pos(ptr); got != want {
				t.Errorf("entry %d %s: %v, by pointer %s %v", i, what, got, ptr, want)
			}
		}
		check("Pos", e.Pos, base)
		check("IncludePos", e.IncludePos, base+"/include")
		if e.Exclude != "" {
			check("ExcludePos", e.ExcludePos, base+"/exclude")
		}
		if e.Package != "" {
			check("PackagePos", e.PackagePos, base+"/package")
		}
		for k, got := range e.SettingPos {
			if m, ok := strings.CutPrefix(k, "group_threads."); ok { // at the key naming the member
				_, key := d.node(base + "/group_threads/" + escapeToken(m))
				checked++
				if key == nil || got != (Pos{File: "p.yaml", Line: key.Line, Col: key.Column}) {
					t.Errorf("entry %d SettingPos[%s] = %v, key node %v", i, k, got, key)
				}
				continue
			}
			ptr := base + ptrOf(k)
			if _, ok := d.valueAt(ptr); !ok {
				ptr = "/defaults" + ptrOf(k)
			}
			check("SettingPos["+k+"]", got, ptr)
		}
		for name, got := range e.ParamPos {
			_, k := d.node(base + "/params/" + escapeToken(name))
			checked++
			if k == nil || got != (Pos{File: "p.yaml", Line: k.Line, Col: k.Column}) {
				t.Errorf("entry %d ParamPos[%s] = %v, key node %v", i, name, got, k)
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d positions; the spec has more", checked)
	}
}

// TestRepeatedBadPattern checks that a pattern parsed once is still
// reported at every entry that uses it.
func TestRepeatedBadPattern(t *testing.T) {
	src := "version: 1\nname: re\nbenchmarks:\n  - include: 'a('\n  - include: 'b'\n  - include: 'a('\n    exclude: 'a('\n"
	_, err := Parse("r.yaml", []byte(src))
	var got []string
	for _, e := range Errors(err) {
		got = append(got, e.Error())
	}
	msg := ": invalid regular expression 'a(': missing closing ): `a(`"
	want := []string{
		"r.yaml:4:14: benchmarks[0].include" + msg,
		"r.yaml:6:14: benchmarks[2].include" + msg,
		"r.yaml:7:14: benchmarks[2].exclude" + msg,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBuildPanicIsAnInternalError checks that a panic while building
// the Spec (here: a key that reaches no field of Settings, as a key
// added to the schema alone would) is Parse's internal error, naming
// the key, not a crash.
func TestBuildPanicIsAnInternalError(t *testing.T) {
	src := "version: 1\nname: p\nbenchmarks:\n  - include: a\n  - include: a\n    gc_before_iteration: true\n"
	settingKeys["gc_before_iteration"] = func(s *Settings, v any) { apply(s, map[string]any{"gc_before_every_iteration": v}) }
	defer delete(settingKeys, "gc_before_iteration")
	s, err := Parse("p.yaml", []byte(src))
	if s != nil || err == nil || !strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "nothing decodes it") {
		t.Errorf("Parse = %v, %v; want the internal error naming the key", s, err)
	}
}
