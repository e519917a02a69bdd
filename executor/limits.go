package executor

import (
	"fmt"
	"sort"

	"github.com/benchspec/benchspec/spec"
	"golang.org/x/sys/unix"
)

// Hard resource limits for a fork, set through the run's env settings
// (spec.SizeVariables; the spec checks their values):
//
//	env: {BENCHSPEC_RLIMIT_AS: 4GiB, GOMEMLIMIT: 512MiB}
//
// GOMEMLIMIT only makes the fork's garbage collector work harder as the
// heap approaches it; a benchmark that keeps what it allocates grows past
// it. A resource limit is enforced by the kernel: an allocation beyond it
// fails and the Go runtime dies with "fatal error: out of memory", which
// fails the run and nothing else.
//
// The parent applies the limits with prlimit(2) right after the fork has
// started, while the fork's runtime is still initializing and before the
// benchmark body runs. Only the fork and what it starts afterwards are
// limited, never the parent. Sizes use GOMEMLIMIT's syntax: a number of
// bytes with an optional B, KiB, MiB, GiB or TiB suffix.
//
// BENCHSPEC_RLIMIT_AS bounds the address space (RLIMIT_AS). A Go process
// reserves address space generously (about 1 GiB before it allocates
// anything on linux/amd64), so it needs a limit well above the heap it
// should be allowed. BENCHSPEC_RLIMIT_DATA (RLIMIT_DATA) counts only
// writable private memory, which is closer to the heap.
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
