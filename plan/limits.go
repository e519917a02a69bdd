package plan

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/benchspec/benchspec/spec"
)

// MaxRuns is the most runs a plan may have. Each run is at least one
// fork of at least one iteration, so no plan that could finish comes
// near it; a params product of millions is a mistake, refused by Build
// before any run is allocated.
const MaxRuns = 100000

// runCount returns the runs an entry expands to over the benchmarks it
// matched, saturating at math.MaxInt: per benchmark, the entry's modes
// times the product of its parameters' value counts.
func runCount(e *spec.Entry, matched []string, byName map[string]*Benchmark) int {
	total := 0
	for _, name := range matched {
		n := len(e.Settings.Modes)
		for p, values := range byName[name].Params {
			if o, ok := e.Params[p]; ok {
				values = o
			}
			n = satMulInt(n, len(values))
		}
		total = satAddInt(total, n)
	}
	return total
}

// tooManyRuns is the error for an entry that would take the plan past
// MaxRuns, at the parameter with the most values (the likely cause; ties
// go to the first name) or else at the entry.
func tooManyRuns(e *spec.Entry, entryRuns, before int) *spec.Error {
	pos, widest := e.Pos, 0
	names := make([]string, 0, len(e.Params))
	for name := range e.Params {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if n := len(e.Params[name]); n > widest {
			pos, widest = e.ParamPos[name], n
		}
	}
	msg := fmt.Sprintf("this entry expands to %s runs (modes × parameter values × benchmarks matched); a plan has at most %d", countString(entryRuns), MaxRuns)
	if before > 0 {
		msg = fmt.Sprintf("this entry's %s runs take the plan past %d runs (%d before it)", countString(entryRuns), MaxRuns, before)
	}
	return &spec.Error{Pos: pos, Msg: msg}
}

func countString(n int) string {
	if n == math.MaxInt {
		return "more than " + fmt.Sprint(math.MaxInt64)
	}
	return fmt.Sprint(n)
}

func satAddInt(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

func satMulInt(a, b int) int {
	if a != 0 && b > math.MaxInt/a {
		return math.MaxInt
	}
	return a * b
}

// AddEstimates adds two estimates, saturating at the longest
// time.Duration (see satAdd).
func AddEstimates(a, b time.Duration) time.Duration { return satAdd(a, b) }

// satAdd and satMul keep estimates of absurd but valid settings (a
// thousand forks of 100 000 iterations of 24h) at the longest
// time.Duration instead of wrapping to a negative one. Both take
// non-negative durations.
func satAdd(a, b time.Duration) time.Duration {
	return time.Duration(satAddInt(int(a), int(b)))
}

func satMul(n int, d time.Duration) time.Duration {
	return time.Duration(satMulInt(n, int(d)))
}
