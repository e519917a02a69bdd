package spec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A build's gcflags reach the compiler of every package they select, and
// several compiler flags read or write a file the flag names:
// -cpuprofile, -memprofile, -traceprofile, -blockprofile, -mutexprofile,
// -bench, -asmhdr, -linkobj, -o and -json write one, -pgoprofile,
// -importcfg, -embedcfg, -symabis and -I read one, and -d's ssa/…/dump
// writes files of its own. So gcflags are checked against a list of the
// flags that only change the code generated or what the compiler prints
// (allowed rather than refused, so that a flag a later compiler adds is
// refused until it is judged): a spec can turn off inlining, but not
// make the compiler write or read a file.

// gcFlagsAllowed are the compiler flags a build may give, each with
// whether it takes a value (-c=4, -d=checkptr; else a boolean or
// counting flag: -l, -m, -m=2).
var gcFlagsAllowed = map[string]bool{
	"%": false, "B": false, "C": false, "E": false, "K": false, "L": false, "N": false,
	"S": false, "W": false, "e": false, "j": false, "l": false, "m": false, "r": false,
	"w": false, "v": false, "wb": false, "live": false, "clobberdead": false,
	"clobberdeadreg": false, "smallframes": false, "dwarf": false,
	"dwarfbasentries": false, "dwarflocationlists": false,
	"c": true, "d": true, "spectre": true, "lang": true,
}

// gcDebugAllowed are the -d settings a build may give: they check or
// print, and write no file.
var gcDebugAllowed = []string{"checkptr", "ssa/check_bce/debug", "ssa/prove/debug", "loopvar", "inlfuncswithclosures"}

// checkGCFlags says why the gcflags value v is refused, or "". v is
// what go build's -gcflags takes: [pattern=]flags, the flags separated
// by spaces.
func checkGCFlags(v string) string {
	v = strings.TrimSpace(v) // as the go command reads it
	flags := v
	if !strings.HasPrefix(v, "-") {
		if i := strings.IndexByte(v, '='); i >= 0 {
			flags = v[i+1:]
		}
	}
	if strings.ContainsFunc(flags, func(r rune) bool { return (r < ' ' && r != '\t') || r > '~' }) {
		// The go command splits on ASCII spaces only; the check must
		// see the fields it sees.
		return "a compiler flag a build may give is printable ASCII, separated by spaces"
	}
	if strings.ContainsAny(flags, `'"`) {
		return "quotes are not needed by any flag a build may give; write the flags separated by spaces"
	}
	fields := strings.Fields(flags)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		name, ok := strings.CutPrefix(f, "-")
		if !ok {
			return fmt.Sprintf("%s is not a compiler flag (a flag starts with -)", strconv.Quote(f))
		}
		name = strings.TrimPrefix(name, "-")
		name, val, hasVal := strings.Cut(name, "=")
		takes, known := gcFlagsAllowed[name]
		if !known {
			return fmt.Sprintf("-%s is not a compiler flag a build may give: a spec may not make the compiler read or write files (-cpuprofile, -o, -pgoprofile, …); allowed: %s", name, allowedGCFlags())
		}
		if takes && !hasVal {
			if i+1 == len(fields) {
				return fmt.Sprintf("-%s needs a value", name)
			}
			i++
			val = fields[i]
		}
		if name == "d" {
			for _, setting := range strings.Split(val, ",") {
				key, _, _ := strings.Cut(setting, "=")
				if !slices.Contains(gcDebugAllowed, key) {
					return fmt.Sprintf("-d=%s is not a debug setting a build may give (some write files); allowed: %s", key, strings.Join(gcDebugAllowed, ", "))
				}
			}
		}
	}
	return ""
}

func allowedGCFlags() string {
	var names []string
	for n := range gcFlagsAllowed {
		names = append(names, "-"+n)
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}
