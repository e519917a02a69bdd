package executor

import (
	"fmt"
	"sort"

	"github.com/benchspec/benchspec/spec"
	"golang.org/x/sys/unix"
)

// Hard resource limits for a fork, from the run's env (spec.SizeVariables
// checks the values; sizes in GOMEMLIMIT's syntax), e.g.
// `env: {BENCHSPEC_RLIMIT_AS: 4GiB}`. GOMEMLIMIT only makes the GC work
// harder; a kernel limit makes an allocation beyond it fail, so the
// runtime dies with "fatal error: out of memory" and only that run fails.
// The parent applies them with prlimit(2) right after the fork starts,
// before the body runs: the fork and what it starts are limited, never the
// parent. RLIMIT_AS needs to sit well above the wanted heap (a Go process
// reserves about 1 GiB of address space before allocating on
// linux/amd64); RLIMIT_DATA counts writable private memory, closer to the
// heap.
var rlimits = map[string]int{
	"BENCHSPEC_RLIMIT_AS":   unix.RLIMIT_AS,
	"BENCHSPEC_RLIMIT_DATA": unix.RLIMIT_DATA,
}

type rlimit struct {
	env      string
	resource int
	bytes    uint64
}

// forkLimits reads the resource limits from a run's env settings.
func forkLimits(env map[string]string) ([]rlimit, error) {
	var out []rlimit
	for name, res := range rlimits {
		v, ok := env[name]
		if !ok {
			continue
		}
		n, err := spec.ParseSize(v)
		if err != nil {
			return nil, fmt.Errorf("env.%s: %v", name, err)
		}
		out = append(out, rlimit{name, res, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].env < out[j].env })
	return out, nil
}

// applyLimits sets the limits, soft and hard, on process pid.
func applyLimits(pid int, limits []rlimit) error {
	for _, l := range limits {
		lim := unix.Rlimit{Cur: l.bytes, Max: l.bytes}
		if err := unix.Prlimit(pid, l.resource, &lim, nil); err != nil {
			return fmt.Errorf("env.%s: setting the fork's limit: %v", l.env, err)
		}
	}
	return nil
}
